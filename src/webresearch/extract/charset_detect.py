"""Guessing the encoding of undeclared bytes. Pure functions.

Used only when a document carries no BOM and no usable declaration (SPEC §1.1). Valid UTF-8
wins outright (legacy encodings almost never produce valid multi-byte UTF-8 by chance). For
anything else every plausible legacy encoding decodes a sample of the text runs, and each
result is scored by how much it looks like real writing; charset-normalizer's own pick joins
the candidates. Statistical detectors alone misjudge short texts (a Russian title in KOI8-R
reads to them as Shift_JIS); the score below looks at what mojibake is made of instead:
symbols, box drawing, controls and unassigned code points, case flips inside a word
("пРИВЕТ"), scripts mixed inside a word, rare letters where frequent ones are expected.
"""

from __future__ import annotations

import codecs
import itertools
import math
import re
import unicodedata
from functools import lru_cache

__all__ = ["SAMPLE_BYTES", "detect_encoding", "plausibility"]

#: Bytes of text runs (outside markup) that are decoded and scored: a few paragraphs decide.
SAMPLE_BYTES = 4 * 1024

#: Legacy encodings tried, most common first: a tie goes to the earlier one. WHATWG names.
CANDIDATES: tuple[str, ...] = (
    "windows-1252",
    "windows-1251",
    "gbk",
    "shift_jis",
    "euc-kr",
    "big5",
    "euc-jp",
    "koi8-r",
    "windows-1250",
    "windows-1253",
    "windows-1254",
    "windows-1255",
    "windows-1256",
    "windows-1257",
    "windows-874",
    "ibm866",
    "iso-8859-5",
    "koi8-u",
    "x-mac-cyrillic",
)

_PYTHON = {
    "gbk": "gb18030",
    "shift_jis": "cp932",
    "euc-kr": "cp949",
    "big5": "big5hkscs",
    "euc-jp": "euc_jp",
    "koi8-r": "koi8_r",
    "koi8-u": "koi8_u",
    "ibm866": "cp866",
    "x-mac-cyrillic": "mac_cyrillic",
    "windows-874": "cp874",
}

# Letter frequencies (per cent of letters): Russian, with Bulgarian ъ and the Ukrainian
# letters added; Greek.
_CYRILLIC_FREQ = {
    "о": 10.97,
    "е": 8.45,
    "а": 8.01,
    "и": 7.35,
    "н": 6.70,
    "т": 6.26,
    "с": 5.47,
    "р": 4.73,
    "в": 4.54,
    "л": 4.40,
    "к": 3.49,
    "м": 3.21,
    "д": 2.98,
    "п": 2.81,
    "у": 2.62,
    "я": 2.01,
    "ы": 1.90,
    "ь": 1.74,
    "г": 1.70,
    "з": 1.65,
    "б": 1.59,
    "ч": 1.44,
    "й": 1.21,
    "х": 0.97,
    "ж": 0.94,
    "ш": 0.73,
    "ю": 0.64,
    "ц": 0.48,
    "щ": 0.36,
    "э": 0.32,
    "ф": 0.26,
    "ъ": 1.0,
    "ё": 0.10,
    "і": 4.0,
    "ї": 0.8,
    "є": 0.8,
    "ґ": 0.1,
}
_GREEK_FREQ = {
    "α": 12.0,
    "ο": 9.8,
    "ι": 7.8,
    "τ": 8.0,
    "ε": 8.0,
    "ν": 7.0,
    "η": 5.0,
    "σ": 4.0,
    "ρ": 4.5,
    "κ": 4.0,
    "π": 4.0,
    "υ": 4.3,
    "μ": 3.5,
    "λ": 2.7,
    "ς": 2.4,
    "ω": 2.0,
    "γ": 1.8,
    "δ": 1.8,
    "θ": 1.3,
    "χ": 1.1,
    "φ": 0.9,
    "ά": 1.5,
    "έ": 1.2,
    "ί": 1.3,
    "ό": 1.3,
    "ή": 0.9,
    "ύ": 0.6,
    "ώ": 0.5,
    "β": 0.6,
    "ξ": 0.4,
    "ζ": 0.4,
    "ψ": 0.1,
}

#: Frequent Chinese characters, most frequent first (the first 1000 weigh more).
_HANZI = (
    "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后"
    "作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因"
    "只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应"
    "战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿"
    "原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太"
    "量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界"
    "达光放强即像难且权思王象完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今"
    "切院让识候带导争运笑飞风步改收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布始怎呢存"
    "未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官"
    "火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历"
    "首医局突专费号尽另周较注语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态"
    "护七兴派孩验责营星够章音跟志底站严巴例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围"
    "江织害斗双境客纪采举杀攻父苏密低朝友诉止细愿千值仍男钱破网热助倒育属坐帝限船脸职速刻乐否刚威毛状"
    "率甚独球般普怕弹校苦创假久错承印晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤素药适波夜省初喜卫源食险"
    "待述陆习置居劳财环排福纳欢雷警获模充负云停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担"
    "州静退既衣您宗积余痛检差富灵协角占配征修皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追"
    "帮宣佛岁航优怪香著田铁控税左右份穿艺背阵草脚概恶块顿敢守酒岛托央户烈洋哥索胡款靠评版宝座释景顾弟"
    "登货互付伯慢欧换闻危忙核暗姐介坏讨丽良序升监临亮露永呼味野架域沙掉括舰鱼杂误湾吉减编楚肯测败屋跑"
    "梦散温困剑渐封救贵枪缺楼县尚毫移娘朋画班智亦耳恩短掌恐遗固席松秘谢鲁遇康虑幸均销钟诗藏赶剧票损忽"
    "巨炮旧端探湖录叶春乡附吸予礼港雨呀板庭妇归睛饭额含顺输摇招婚脱补谓督毒油疗旅泽材灭逐莫笔亡鲜词圣"
    "择寻厂睡博勒烟授诺伦岸奥唐卖俄炸载洛健堂旁宫喝借君禁阴园谋宋避抓荣姑孙逃牙束跳顶玉镇雪午练迫爷篇"
    "肉嘴馆遍凡础洞卷坦牛宁纸诸训私庄祖丝翻暴森塔默握戏隐熟骨访弱蒙歌店鬼软典欲萨伙遭盘爸扩盖弄雄稳忘"
    "亿刺拥徒姆杨齐赛趣曲刀床迎冰虚玩析窗醒妻透购替塞努休虎扬途侵刑绿兄迅套贸毕唯谷轮库迹尤竞街促延震"
    "弃甲伟麻川申缓潜闪售灯针哲络抵朱埃抱鼓植纯夏忍页杰筑折郑贝尊吴秀混臣雅振染盛怒舞圆搞狂措姓残秋培"
    # Traditional forms of frequent characters (Big5 pages).
    "這個們來為國時說會對發後過經麼學現當沒動還進種樣開長問見實無從與間點頭電關機話業東兩義門應體幾邊"
    "聲氣並結軍產員於裡將戰給兒論處認條題爾別變總數報務場資許統區隊決書則聽達強難權設記類據張該規萬覺"
    "術領確傳師觀讓識帶導爭運飛風聯組濟車親極辦議遠單羅愛擊備連調質團價黨華級離況亞請際約線斷滿視須寫"
    "稱嗎輕農裝廣顯標談圖歷醫專費號盡較語僅隨選紅響雖勢參眾構節維劃敵陳態護興驗責營夠嚴續講終緊黃絕項"
    "圍織鬥雙紀舉殺蘇訴細願錢網熱屬臉職樂剛獨彈創錯蘭試腦預誰陽繼驚傷藥適衛險陸習勞財環納歡獲負雲遊龍"
)
#: Japanese kanji frequent in Japanese but not in the list above.
_KANJI_JA = "円駅様気会社込払戻届働単図帰変読続転価県区総営楽薬辺歳浜沢広関連売買鉄銀"
#: Frequent Hangul syllables.
_HANGUL = (
    "이의다에는을를가하고지기사서한로도자리수있그시대어나인정일해적으것라보전부상아구제주면들과국마게"
    "장소만여우요모세성학니없동경생위내신유방중원계되문거화조비무미분행습까께했었때말관개식물발회공안산"
    "선실연단현은년월않오후또더같당저좋날씨울름운영통용업음입결합점차작교명번법재간금심출청표받기록확"
    "민력발각반이람러려며서울져질치터트편품필할했합했니다세요습니까입니다데도록니까께서는에서으로부터"
    "까지보다처럼만큼하며하여하는하고한다했다있는있다없는없다되는된다같은같이위해대한통해따라우리여러"
    "새로운오늘내일지금여기저기누구무엇어디언제왜어떻게모든다른많은작은큰좋은나쁜아주매우정말가장"
)


@lru_cache(maxsize=1)
def _ideograph_weights() -> dict[str, float]:
    weights: dict[str, float] = {}
    for i, ch in enumerate(_HANZI):
        weights.setdefault(ch, 2.5 if i < 1000 else 1.2)
    for ch in _KANJI_JA:
        weights.setdefault(ch, 2.0)
    return weights


_COMMON_PUNCT = frozenset("\u00a0«»°·№€©®™±×÷§¶–—‘’‚“”„•…‰′″‹›¡¿¢£¥")
_CJK_PUNCT = frozenset("、。〃々〆〇〈〉《》「」『』【】〔〕〜・ー　")
#: Accented Latin letters frequent in European languages (French, German, Spanish, Polish…).
_ACCENTED = frozenset(
    "éèàüöäßñçáíóúąęłśćżźńčřšžěůýőűğışâêôîûëïùòãõåæøÉÈÀÜÖÄÑÇÁÍÓÚĄĘŁŚĆŻŹŃČŘŠŽĚŮŐŰĞŞİÂÊÔÎÅÆØ"
)
#: One-letter words that are common in Latin-script languages (French "à", Spanish "ó"…).
_ACCENTED_WORDS = frozenset("àéèóáúíùòåä")
#: Characters that may sit inside a word (apostrophes, hyphens, dashes, Catalan middle dot).
_IN_WORD = frozenset("’‘‐‑·\u00ad–—\u00a0")
#: Punctuation that may touch the next word's first letter, or the previous word's last one.
_OPENERS = frozenset("«“„‘‚‹¿¡\u00a0")
_CLOSERS = frozenset("»”’›…™®°©\u00a0")
_HEBREW_FINAL = frozenset("ךםןףץ")
_HEBREW_NON_FINAL = frozenset("כמנפצ")
_THAI_ABOVE = frozenset("\u0e31\u0e34\u0e35\u0e36\u0e37\u0e38\u0e39\u0e47")
_THAI_COMMON = frozenset("านรอกเงมยลวดทสตะีั่้ิบคปหจพขใไแโชือุูำซถผฝฟศษฮญฐฑฒณธภฬ")

_TOKEN = re.compile(r"[^\W\d_]+|[^\x00-\x7f]")
_WEIGHTED_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "HEBREW", "ARABIC", "THAI"})


@lru_cache(maxsize=4096)
def _script(ch: str) -> str:
    """A coarse script name of a character (first word of its Unicode name)."""
    if ch < "\x80":
        return "LATIN" if ch.isalpha() else ""
    try:
        return unicodedata.name(ch).split(" ", 1)[0]
    except ValueError:
        return "?"


def _clamped_log(freq: float, base: float) -> float:
    return max(-2.5, min(1.5, math.log(freq / base)))


@lru_cache(maxsize=4096)
def _char_weight(ch: str) -> float:
    """How typical one non-ASCII character is of real text (negative: typical of mojibake).

    Roughly a log-likelihood ratio per byte: a CJK character (two bytes) weighs about twice
    a letter of a one-byte script.
    """
    code = ord(ch)
    lower = ch.lower()
    if lower in _CYRILLIC_FREQ:
        return _clamped_log(_CYRILLIC_FREQ[lower], 3.0) + (0.0 if ch != lower else 0.5)
    if lower in _GREEK_FREQ:
        return _clamped_log(_GREEK_FREQ[lower], 4.0) + (0.0 if ch != lower else 0.5)
    if ch in _COMMON_PUNCT:
        return 0.3
    if ch in _CJK_PUNCT or 0xFF01 <= code <= 0xFF5E:
        return 1.0
    if 0x3041 <= code <= 0x30FF:  # hiragana, katakana
        return 2.5
    if 0x4E00 <= code <= 0x9FFF:
        return _ideograph_weights().get(ch, -1.0)
    if 0xAC00 <= code <= 0xD7A3:
        return 2.5 if ch in _HANGUL else 0.0
    if 0xFF61 <= code <= 0xFF9F:  # half-width katakana: Shift_JIS misreads
        return -1.0
    if 0x05D0 <= code <= 0x05EA:  # Hebrew letters
        return 0.8
    if 0x0621 <= code <= 0x064A:  # Arabic letters
        return 0.8
    if 0x0E01 <= code <= 0x0E4E:  # Thai
        return 0.5 if ch in _THAI_COMMON else -0.5
    category = unicodedata.category(ch)
    if category in ("Lo", "Ll", "Lu", "Lm"):
        return -1.0
    if category in ("Mn", "Mc"):  # Hebrew points, Arabic harakat: rare in modern text
        return -2.0
    return -3.0  # symbols, box drawing, controls, private use, unassigned


@lru_cache(maxsize=8192)
def _word_score(word: str) -> float:
    """Score of the non-ASCII letters of one run of letters."""
    non_ascii = [c for c in word if c >= "\x80"]
    if not non_ascii:
        return 0.0
    scripts = {_script(c) for c in word}
    has_ascii = len(non_ascii) < len(word)
    total = 0.0
    for c in non_ascii:
        if _script(c) == "LATIN":
            if len(word) == 1:
                total += 0.5 if c in _ACCENTED_WORDS else -1.0
            elif c in _ACCENTED and (has_ascii or len(word) <= 2):
                total += 1.0
            else:
                total -= 1.0
        else:
            total += _char_weight(c)
    if len(scripts & _WEIGHTED_SCRIPTS) > 1:
        total -= 2.0 * len(non_ascii)
    total -= 2.0 * sum(1 for a, b in itertools.pairwise(word) if a.islower() and b.isupper())
    if "HEBREW" in scripts:
        total -= 2.0 * sum(1 for c in word[:-1] if c in _HEBREW_FINAL)
        total -= 1.0 * (word[-1] in _HEBREW_NON_FINAL)
    if "THAI" in scripts:
        total -= 2.0 * _thai_faults(word)
    return total


def _thai_faults(word: str) -> int:
    """Marks that follow no consonant, and leading vowels that end a word."""
    faults = 0
    prev = ""
    for ch in word:
        if unicodedata.category(ch) == "Mn" and not (
            "\u0e01" <= prev <= "\u0e2e" or prev in _THAI_ABOVE
        ):
            faults += 1
        prev = ch
    return faults + (word[-1] in "เแโใไ")


def _glued(text: str, pos: int, ch: str) -> int:
    """How many sides of the symbol ``ch`` at ``pos`` touch a letter where it should not."""
    before = pos > 0 and text[pos - 1].isalpha()
    after = pos + 1 < len(text) and text[pos + 1].isalpha()
    if ch in _IN_WORD:
        return int(after and not before and ch not in _OPENERS)
    return int(before and ch not in _CLOSERS) + int(after and ch not in _OPENERS)


def plausibility(text: str) -> float:
    """How much the non-ASCII part of ``text`` looks like real writing (higher: more real).

    A sum over characters (so longer evidence counts more; compare candidates decoded from
    the same bytes). Letters are judged by their word: accented Latin letters are plausible
    among ASCII letters (``Grüße``) and not as whole words (``Ïîãîäà``); words mixing
    scripts, capitals right after small letters (``пРИВЕТ``), Hebrew final letters inside a
    word and symbols glued between letters are penalised. Returns ``-inf`` when ``text``
    has no non-ASCII character.
    """
    total = 0.0
    seen = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        if len(token) == 1 and not token.isalpha():
            if token >= "\x80":
                seen = True
                total += _char_weight(token) - 1.5 * _glued(text, match.start(), token)
            continue
        if not token.isascii():
            seen = True
            total += _word_score(token)
    return total if seen else float("-inf")


_RUN = re.compile(rb"[^\n<>]*[\x80-\xff][^\n<>]*")


def _text_sample(body: bytes) -> bytes:
    """Up to :data:`SAMPLE_BYTES` of the text runs holding non-ASCII bytes (outside ``<…>``).

    Runs are cut at ``<``, ``>`` and newlines, which never occur inside a multi-byte
    character of the encodings tried, so each run decodes on its own.
    """
    parts: list[bytes] = []
    size = 0
    for match in _RUN.finditer(body):
        run = match.group()
        if len(run) > SAMPLE_BYTES:  # cut after an ASCII byte, never inside a character
            cut = max(run.rfind(b" ", 0, SAMPLE_BYTES), 0)
            run = run[:cut]
        parts.append(run)
        size += len(run) + 1
        if size >= SAMPLE_BYTES:
            break
    return b"\n".join(parts)


def _decode_strict(sample: bytes, encoding: str) -> str | None:
    codec = _PYTHON.get(encoding, encoding)
    try:
        return sample.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


def _charset_normalizer_guess(sample: bytes) -> str | None:
    """charset-normalizer's best guess as a WHATWG name, or ``None``."""
    import webencodings
    from charset_normalizer import from_bytes

    best = from_bytes(sample).best()
    if best is None:
        return None
    found = webencodings.lookup(best.encoding.replace("_", "-"))
    if found is None or found.name in ("replacement", "x-user-defined", "utf-8"):
        return None
    return str(found.name)


def _incomplete_only(body: bytes) -> bool:
    """True when the only non-ASCII bytes are an unfinished sequence at the very end."""
    return (
        body.rstrip(bytes(range(0x80, 0x100))).isascii()
        and len(body) - len(body.rstrip(bytes(range(0x80, 0x100)))) < 4
    )


def detect_encoding(body: bytes) -> str | None:
    """Guess the encoding of ``body`` (no BOM, no usable declaration).

    Args:
        body: the document bytes.

    Returns:
        a WHATWG encoding name: ``"utf-8"`` when the bytes are valid UTF-8 (an incomplete
        character at the very end allowed), ``"iso-2022-jp"`` for 7-bit text with its escape
        sequences, else the best-scoring legacy encoding; ``None`` when the body is pure ASCII
        (nothing to detect).
    """
    try:
        codecs.getincrementaldecoder("utf-8")("strict").decode(body, final=False)
    except UnicodeDecodeError:
        pass
    else:
        if body.isascii():
            return "iso-2022-jp" if b"\x1b$B" in body or b"\x1b$@" in body else None
        if not _incomplete_only(body):
            return "utf-8"
    sample = _text_sample(body)
    scored: list[tuple[float, int, str]] = []
    for rank, name in enumerate(CANDIDATES):
        text = _decode_strict(sample, name)
        if text is not None:
            scored.append((plausibility(text), -rank, name))
    guess = _charset_normalizer_guess(sample)
    if guess is not None and guess not in CANDIDATES:
        text = _decode_strict(sample, guess)
        if text is not None:
            scored.append((plausibility(text), -len(CANDIDATES), guess))
    if not scored:
        return "windows-1252"
    return max(scored)[2]
