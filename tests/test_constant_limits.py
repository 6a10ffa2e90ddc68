"""A time limit the code holds in a `const` (`duration >= POSTGRES_WAIT_TIMEOUT`) is sized
by editing the code, not by a setting: the class's "Size the time limit for the slowest
expected case" sent neon's readers to look for one (reading 191)."""

from __future__ import annotations

from site_fixtures import explained


def test_a_time_limit_that_is_a_constant_of_the_code_is_not_sized_by_a_setting() -> None:
    # neon's `wait_for_postgres`, whose `const` of 60 s no operator can size
    explanation = explained(
        "const POSTGRES_WAIT_TIMEOUT: Duration = Duration::from_millis(60 * 1000);\n"
        "fn wait_for_postgres(started_at: Instant) -> anyhow::Result<()> {\n"
        "    let duration = started_at.elapsed();\n"
        "    if duration >= POSTGRES_WAIT_TIMEOUT {\n"
        '        anyhow::bail!("timed out while waiting for postgres to start");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    assert explanation.backgroundTag == "timeout"
    assert explanation.preventionTips[-1] == (
        "The time limit is the constant `POSTGRES_WAIT_TIMEOUT` of the code, which no setting "
        "changes: watch what makes the operation slow."
    )
