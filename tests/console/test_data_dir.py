"""``companion dashboard`` and ``companion run`` share the data-folder option and its default."""

from __future__ import annotations

from pathlib import Path

from companion.cli import build_parser
from companion.settings import default_data_dir


def _args(*argv):
    return build_parser().parse_args(list(argv))


def test_same_option_name_for_both_commands(tmp_path):
    assert _args("dashboard", "--data-dir", str(tmp_path)).data_dir == tmp_path
    assert _args("run", "--data-dir", str(tmp_path)).data_dir == tmp_path


def test_old_dashboard_option_still_works_but_is_hidden(tmp_path, capsys):
    assert _args("dashboard", "--data", str(tmp_path)).data_dir == tmp_path
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    help_text = sub.choices["dashboard"].format_help()
    assert "--data-dir" in help_text
    assert "--data " not in help_text and "--data DATA" not in help_text


def test_same_default(monkeypatch, tmp_path):
    """Neither command fixes its own default: both fall back to settings.default_data_dir()."""
    from companion.commands import dashboard

    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "env"))
    assert default_data_dir() == tmp_path / "env"
    seen = {}

    class FakeTable:
        def __init__(self, data_dir, pin=None, **_options):
            seen["dir"] = Path(data_dir)
            raise ValueError("stop here")

    monkeypatch.setattr("companion.table.Table", FakeTable)
    assert dashboard.run(_args("dashboard")) == 2
    assert seen["dir"] == tmp_path / "env"
    from companion.commands.run import build_settings

    assert build_settings(_args("run")).data_dir == tmp_path / "env"
