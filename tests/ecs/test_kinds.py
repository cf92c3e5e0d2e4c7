"""Counter kind names (CR 122.1, 122.1a, 122.1b)."""
import pytest

from ecs import InvalidKindError
from ecs.kinds import MAX_KIND_LENGTH, keyword_of, pt_modifier, validate_kind


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
