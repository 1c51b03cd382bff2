"""A serial the table does not know may have been typed by the operator, not scanned: the refusal
says to rescan *or* check the number typed (a tester typed it by hand and was told to rescan)."""

from companion.dashboard.reasons import reason_message


def test_a_serial_refusal_speaks_to_a_typed_number_too():
    for code in ("unregistered_serial", "not_own_note"):
        assert "check the number typed" in reason_message(code, "en", "skull")  # the message id
        assert reason_message(code, "ru", "skull") not in ("", reason_message(code, "en", "skull"))  # translated
