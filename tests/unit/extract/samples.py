"""Texts in many languages, to encode in legacy encodings and detect back."""

from __future__ import annotations

#: language → (text, WHATWG encodings that can hold it)
SAMPLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ru": (
        "Погода в Новосибирске: температура опустится до минус двадцати трёх градусов, а на "
        "трассе возможны заносы. Синоптики обещают умеренный мороз и солнце до конца недели. "
        "Ёлочный базар откроется в субботу на центральной площади. Жители города готовятся к "
        "праздникам: в магазинах много покупателей, а на улицах уже зажгли гирлянды.",
        ("windows-1251", "koi8-r", "ibm866", "iso-8859-5", "x-mac-cyrillic"),
    ),
    "uk": (
        "Київ готується до зими: міська влада перевіряє теплові мережі, а мешканці утеплюють "
        "вікна. Їхні сусіди з Житомира вже отримали перші рахунки за опалення, які виявилися "
        "більшими, ніж торік.",
        ("windows-1251", "koi8-u"),
    ),
    "bg": (
        "България е държава в Югоизточна Европа. Столицата е София, а най-големият морски град "
        "е Варна. Страната е известна с розовото масло и киселото мляко.",
        ("windows-1251",),
    ),
    "zh": (
        "今天天气很好，我们去公园散步吧。北京的秋天非常美丽，树叶变成了金黄色。这个城市有很多历史"
        "悠久的建筑，每年都吸引大量游客前来参观。政府计划明年扩建地铁线路，方便市民出行。",
        ("gbk", "gb18030"),
    ),
    "zh-tw": (
        "今天天氣很好，我們去公園散步吧。台北的秋天非常美麗，樹葉變成了金黃色。這個城市有很多歷史"
        "悠久的建築，每年都吸引大量遊客前來參觀。政府計劃明年擴建捷運路線，方便市民出行。",
        ("big5",),
    ),
    "ja": (
        "今日はとても良い天気ですね。東京の秋は美しいです。駅の近くに新しいカフェができました。"
        "週末には友達と一緒に映画を見に行く予定です。日本の文化について勉強するのはとても楽しい"
        "と思います。",
        ("shift_jis", "euc-jp", "iso-2022-jp"),
    ),
    "ko": (
        "오늘 날씨가 아주 좋습니다. 서울의 가을은 아름답습니다. 우리는 주말에 친구들과 함께 공원에 "
        "갈 예정입니다. 한국의 전통 음식은 세계적으로 인기가 많고, 많은 관광객들이 맛있는 음식을 "
        "먹기 위해 한국을 방문합니다.",
        ("euc-kr",),
    ),
    "de": (
        "Die Führung über den Domplatz kostet 12 € pro Person — Ermäßigung gibt es für Schüler. "
        "Treffpunkt ist das Café „Zur Brücke“ am Rheinufer; bitte pünktlich erscheinen.",
        ("windows-1252",),
    ),
    "fr": (
        "L'été dernier, nous sommes allés à la plage près de Nice. Les enfants ont adoré nager "
        "et construire des châteaux de sable. C'était vraiment très agréable.",
        ("windows-1252",),
    ),
    "pl": (
        "Wczoraj pojechaliśmy do Krakowa, gdzie zwiedziliśmy Wawel i Sukiennice. Pogoda była "
        "piękna, a jedzenie w restauracji przy rynku smakowało wyśmienicie.",
        ("windows-1250",),
    ),
    "cs": (
        "Praha je hlavní město České republiky a leží na řece Vltavě. Příliš žluťoučký kůň úpěl "
        "ďábelské ódy.",
        ("windows-1250",),
    ),
    "el": (
        "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μία από τις αρχαιότερες πόλεις του κόσμου. "
        "Η Ακρόπολη δεσπόζει πάνω από την πόλη.",
        ("windows-1253",),
    ),
    "tr": (
        "İstanbul, Türkiye'nin en kalabalık şehridir ve iki kıtaya yayılmıştır. Boğaziçi "
        "Köprüsü Avrupa ile Asya'yı birbirine bağlar.",
        ("windows-1254",),
    ),
    "he": (
        "ירושלים היא בירת ישראל והעיר הגדולה ביותר במדינה. העיר העתיקה מוקפת חומה ובה אתרים "
        "קדושים לשלוש הדתות.",
        ("windows-1255",),
    ),
    "ar": (
        "القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها. يمر نهر النيل عبر المدينة، وتقع "
        "الأهرامات بالقرب منها في الجيزة.",
        ("windows-1256",),
    ),
    "th": (
        "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย มีประชากรมากกว่าสิบล้านคน "
        "และเป็นศูนย์กลางทางเศรษฐกิจของประเทศ",
        ("windows-874",),
    ),
}


def short(text: str) -> str:
    """The first three words (a short title)."""
    words = text.split()
    if len(words) < 3:  # scripts without spaces (Chinese, Japanese, Thai)
        return text[:12]
    return " ".join(words[:3])


def first_sentence(text: str) -> str:
    """The text up to its first full stop."""
    for stop in (". ", "。"):
        if stop in text:
            return text.split(stop, 1)[0]
    return text
