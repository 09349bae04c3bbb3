"""Network edge: SSRF address/hostname rules, the guard, and the guarded HTTP client."""
