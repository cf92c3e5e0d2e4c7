"""Counter kind names (CR 122.1, 122.1a, 122.1b)."""
import pytest

from ecs import InvalidKindError
from ecs.kinds import KEYWORD_BIT, KEYWORDS, MAX_KIND_LENGTH, keyword_of, pt_modifier, validate_kind


@pytest.mark.parametrize("kind", ["+1/+1", "-1/-1", "+1/+0", "-0/-2", "+10/+10", "charge",
                                  "first strike", "hexproof from black", "time-lapse", "p1p1",
                                  "x" * MAX_KIND_LENGTH, "+999/+999", "-0/-999"])
def test_accepted(kind):
    assert validate_kind(kind) == kind


@pytest.mark.parametrize("kind", ["", "Charge", " charge", "charge ", "a  b", "1/1", "+1/1",
                                  "x" * (MAX_KIND_LENGTH + 1), "ch@rge", "+1/-1", "-1/+1", None, 3, b"charge",
                                  "time_lapse", "+1000/+1000", "+1/+1000", "charge\n"])
def test_rejected(kind):
    with pytest.raises(InvalidKindError, match="kind"):
        validate_kind(kind)


@pytest.mark.parametrize("kind", ["+0/+0", "-0/-0"])
def test_122_1a_a_pt_kind_changes_power_or_toughness(kind):
    """+0/+0 and -0/-0 would be two names of one counter that changes nothing: refused."""
    with pytest.raises(InvalidKindError, match="malformed"):
        validate_kind(kind)


@pytest.mark.parametrize("kind", ["+01/+01", "-1/-01", "+00/+1", "+001/+001", "-010/-0"])
def test_122_1_a_pt_kind_has_one_name_no_leading_zeros(kind):
    """Counters of one name are interchangeable (122.1): "+01/+01" would be a second kind
    of +1/+1 counter, which 704.5q would not pair with -1/-1 and proliferate would count
    twice; it is refused as malformed."""
    with pytest.raises(InvalidKindError, match="leading zeros"):
        validate_kind(kind)


def test_122_1a_pt_modifiers():
    assert pt_modifier("+1/+1") == (1, 1) and pt_modifier("-2/-0") == (-2, 0)
    assert pt_modifier("+0/+3") == (0, 3) and pt_modifier("charge") is None


def test_122_1b_keywords_and_variants():
    assert keyword_of("flying") == "flying" and keyword_of("hexproof from red") == "hexproof"
    assert keyword_of("double strike") == "double strike" and keyword_of("flyingish") is None
    assert keyword_of("strike") is None


@pytest.mark.parametrize("kind", ["+\uff11/+\uff11", "+\u0661/+\u0661", "+\U0001d7cf/+\U0001d7cf",
                                  "charge\uff12", "\u0663", "ch\u00e4rge", "+\u0967/+0"])
def test_the_grammar_is_ascii_only(kind):
    """Fullwidth, Arabic-Indic, Devanagari and mathematical digits (and other non-ASCII
    letters) are not the grammar's 0-9: such a name is refused, never read as +1/+1."""
    with pytest.raises(InvalidKindError, match="malformed"):
        validate_kind(kind)
    assert pt_modifier(kind) is None


@pytest.mark.parametrize("kind", ["Charge", "ch@rge", "time_lapse", "+1000/+0"])
def test_a_malformed_kind_is_named_in_the_error(kind):
    """The refusal names the value it refuses (quoted), so a failing simulation shows it."""
    with pytest.raises(InvalidKindError) as info:
        validate_kind(kind)
    assert repr(kind) in str(info.value)


#: CR 122.1b's keyword counters, in the rule's order.
RULE_122_1B = ("flying", "first strike", "double strike", "deathtouch", "decayed", "exalted", "haste",
               "hexproof", "indestructible", "lifelink", "menace", "reach", "shadow", "trample", "vigilance")


@pytest.mark.parametrize("keyword", RULE_122_1B)
def test_122_1b_each_keyword_counter_and_its_variants_grant_the_keyword(keyword):
    """Every keyword 122.1b names is a keyword counter, alone or as a variant
    ("<keyword> from ..."); a longer word that starts with it is not."""
    assert validate_kind(keyword) == keyword
    assert keyword_of(keyword) == keyword and keyword_of(f"{keyword} from red") == keyword
    assert keyword_of(keyword + "x") is None


def test_122_1b_keyword_bits_keep_the_rules_order_a_saved_game_relies_on():
    """A saved game stores printed keywords as a bit mask of KEYWORDS: bit i is 122.1b's
    i-th keyword, so a save read by another version means the same keywords."""
    assert KEYWORDS == RULE_122_1B
    assert KEYWORD_BIT == {k: 1 << i for i, k in enumerate(RULE_122_1B)}


def test_122_1a_a_pt_kind_is_a_whole_name_not_a_prefix():
    """A power/toughness kind is +X/+Y or -X/-Y and nothing more: "+1/+1 charge" is no
    +1/+1 counter (it changes nothing, and is refused as malformed)."""
    for kind in ("+1/+1 charge", "+1/+1x", "-1/-1-1"):
        assert pt_modifier(kind) is None
        with pytest.raises(InvalidKindError, match="malformed"):
            validate_kind(kind)


def test_a_kind_name_is_at_most_40_characters():
    """The grammar's bound, as its error message states it: 40 characters pass, 41 do not."""
    assert validate_kind("a" * 40) == "a" * 40
    with pytest.raises(InvalidKindError, match="at most 40 characters"):
        validate_kind("a" * 41)
