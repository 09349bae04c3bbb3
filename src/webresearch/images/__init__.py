"""Image preparation for vision models (the only place Pillow is used)."""
