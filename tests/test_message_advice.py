"""The advice an error message gives in its own words is the first thing its explanation
says to do: quoted as written, never invented, never taken from a sentence that only names
the failure."""

from __future__ import annotations

import pytest
from site_fixtures import explained, explained_all

from pipeline.analyze.message_advice import advice_in


@pytest.mark.parametrize(
    ("message", "advice"),
    [
        # cargo: a `help:` line under the message
        (
            "no such command: `{cmd}`\n\nhelp: view all installed commands with `cargo --list`",
            ("view all installed commands with `cargo --list`",),
        ),
        # helix: a hint in the same line
        (
            "Sorting requires multiple selections. Hint: split selection first",
            ("split selection first",),
        ),
        # meilisearch: a bulleted hint
        (
            "Using `.personalize` is not allowed in federated queries.\n"
            "  - Hint: remove `personalize` from the query",
            ("remove `personalize` from the query",),
        ),
        # qdrant: a sentence that opens with a flag keeps its dashes (no bullet)
        (
            "--bucket is required for the {:?} backend",
            ("--bucket is required for the {:?} backend",),
        ),
        ("-> * hint: split it", ("split it",)),
        # bat: "To solve this, .." after the failure
        (
            "The binary caches in '{}' are not compatible with this version of bat ({}). To "
            "solve this, either rebuild the cache (bat cache --build) or remove them.",
            ("To solve this, either rebuild the cache (bat cache --build) or remove them.",),
        ),
        # risingwave: a sentence that asks
        (
            "Feature `{}` is not enabled at compile time. Please enable it in `Cargo.toml` and rebuild.",
            ("Please enable it in `Cargo.toml` and rebuild.",),
        ),
        # an imperative after the first sentence
        ("Scratch buffer cannot be moved. Use :write instead", ("Use :write instead",)),
        (
            "Workspace is not trusted. Run `:workspace-trust` to enable it.",
            ("Run `:workspace-trust` to enable it.",),
        ),
        # a clause after a comma, and one after `; `
        ("Key '-' cannot be used with modifiers, use '{}' instead", ("use '{}' instead",)),
        ("data may have been recycled, please recreate cursor", ("please recreate cursor",)),
        (
            "`{old}` is unsupported as of the 2024 edition; instead use `{new}`",
            ("instead use `{new}`",),
        ),
        # two pieces of advice, in order
        (
            "Too many headers. Please limit the number of headers to 200. "
            "Hint: To remove a header set its value to `null`",
            (
                "Please limit the number of headers to 200.",
                "To remove a header set its value to `null`",
            ),
        ),
        # a sentence end inside backticks does not split
        ("Bad key `a. B`. Try `b`", ("Try `b`",)),
        ("No such index. Try creating it first", ("Try creating it first",)),
        ("Timed out, try again later", ("try again later",)),
        ("Bad flag. Try: `--all`", ("Try: `--all`",)),
        # what must be done, first sentence or not (risingwave, cargo, meilisearch)
        ("Must specify 'connector' in WITH clause", ("Must specify 'connector' in WITH clause",)),
        (
            "You must provide a master key to secure your instance. It can be any string.",
            ("You must provide a master key to secure your instance.",),
        ),
        ("region must be provided", ("region must be provided",)),
        (
            "`channel` or `channel_column` must be set",
            ("`channel` or `channel_column` must be set",),
        ),
        ("feedback strategy is required", ("feedback strategy is required",)),  # qdrant
        # a verb on a quoted command, for a purpose, opening the message (uv, risingwave)
        ("Run `{}` to authenticate uv with pyx", ("Run `{}` to authenticate uv with pyx",)),
        (
            "Use `ALTER TABLE` to alter a table with connector.",
            ("Use `ALTER TABLE` to alter a table with connector.",),
        ),
    ],
)
def test_the_advice_a_message_gives_is_found_as_written(
    message: str, advice: tuple[str, ...]
) -> None:
    assert advice_in(message) == advice


@pytest.mark.parametrize(
    "message",
    [
        "use of moved value: `{}`",  # a verb that is a noun here
        "Set of keys is empty. Check failed for {}",  # ... and a report, not an order
        "Call to `{}` failed. Run time exceeded",  # "Run time" is no command
        "to timezone: help example is invalid",  # `help` that is no marker
        "Expected {N} bytes but instead received {0} bytes",
        "hint: {1}",  # nothing but a placeholder
        "ambiguous package, try:",  # a lead-in to lines the message does not hold here
        "failed to write to clipboard provider's stdin",
        "Must be a valid number",  # a requirement on a value, no act
        "Missing value. Must be positive",
        "cannot drop schema {} because it is required by the database system",  # a refusal
        "Set `x` to the default failed",  # a report of a step, not an order
        "try merge on different types",  # what was tried (tantivy's, reading 301)
        "bad state, try merge on different types",
    ],
)
def test_a_message_that_gives_no_advice_yields_none(message: str) -> None:
    assert advice_in(message) == ()


def _explained(source: str) -> list[str]:
    return explained(source).solutions


def test_the_message_s_advice_is_the_first_solution_with_its_placeholders_explained() -> None:
    solutions = _explained(
        "fn sort(n: usize) -> anyhow::Result<()> {\n"
        "    if n == 1 {\n"
        '        anyhow::bail!("Sorting requires multiple selections. Hint: split selection first");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    assert solutions[0] == 'The message itself says what to do: "split selection first".'
    filled = _explained(
        "fn key(k: char) -> anyhow::Result<()> {\n"
        "    anyhow::bail!(\"Key '-' cannot be used with modifiers, use '{}' instead\", k)\n"
        "}\n"
    )
    assert filled[0] == (
        "The message itself says what to do: \"use '{}' instead\" (the message you see has "
        "the values in place of its `{..}`)."
    )


def test_a_message_without_advice_keeps_the_solutions_it_had() -> None:
    solutions = _explained(
        "fn sort(n: usize) -> anyhow::Result<()> {\n"
        '    anyhow::ensure!(n != 1, "Sorting requires multiple selections");\n'
        "    Ok(())\n"
        "}\n"
    )
    assert not any("message itself says" in s for s in solutions)


def test_a_panic_that_advises_softens_its_report_line() -> None:
    solutions = _explained(
        "fn cast(t: &str) {\n"
        "    if t.is_empty() {\n"
        '        unreachable!("unsupported type. Please convert to VARCHAR first.");\n'
        "    }\n"
        "}\n"
    )
    assert solutions[0] == (
        'The message itself says what to do: "Please convert to VARCHAR first.".'
    )
    assert solutions[-1].startswith("If that advice does not fit your case, this is a bug")


def test_printed_values_are_rejected_inputs_only_when_the_error_refuses_something() -> None:
    failed = _explained(
        "fn save(path: &str) -> anyhow::Result<()> {\n"
        '    anyhow::bail!("failed to write the report to {}", path)\n'
        "}\n"
    )
    assert (
        "Look at the value(s) the message prints (`{}` from `path`): they say which input or object the "
        "failure is about; check that one first."
    ) in failed
    assert not any("rejected" in s for s in failed)
    refused = _explained(
        'fn flag(name: &str) -> anyhow::Result<()> {\n    anyhow::bail!("invalid value for --{name}")\n}\n'
    )
    assert any(
        "(the value refused, or what it expected); where one is a value you gave, correct that "
        "and try again." in s
        for s in refused
    )


def test_a_panic_that_prints_the_error_underneath_starts_there() -> None:
    """`panic!("Failed to claim terminal: {}", err)` makes a failure fatal: the error it
    prints (no terminal, a permission) may be the reader's to fix, so "this is a bug, not
    something to fix in your input" would be wrong."""
    solutions = _explained(
        "fn claim(t: &mut Terminal) {\n"
        "    if let Err(err) = t.claim() {\n"
        '        panic!("Failed to claim terminal: {}", err);\n'
        "    }\n"
        "}\n"
    )
    assert solutions[0] == (
        "The message prints the error underneath (`{}`): it says what failed beneath this "
        "step; start there."
    )
    assert solutions[-1].startswith("If that error is not one your environment or input causes")
    assert not any("not something to fix in your input" in s for s in solutions)
    # the code chose to stop on the error it got: no path it "assumed could not be taken"
    # (lemmy's `Err(e) => panic!("Cannot bind to {}:{}: {e}")`, reading 128), and its code
    # comment is a step that failed, not "a bug, not bad input"
    assert len(solutions) == 2
    source = (
        "fn serve(bind: &str, port: u16) {\n"
        "    match HttpServer::bind((bind, port)) {\n"
        "        Ok(server) => server.run(),\n"
        '        Err(e) => panic!("Cannot bind to {}:{}: {e}", bind, port),\n'
        "    }\n"
        "}\n"
    )
    fix = explained(source).exampleFix or ""
    assert "It panics here on the error it prints: read that error" in fix
    assert "is a bug, not bad input" not in fix


def test_the_configuration_line_names_the_setting_and_never_a_command_s_arguments() -> None:
    configured = _explained(
        "fn start(&self) -> anyhow::Result<()> {\n"
        "    if !self.config.streaming.enable_backfill {\n"
        '        anyhow::bail!("backfill is disabled");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )
    assert (
        "The check reads configuration (`self.config.streaming.enable_backfill`): review "
        "that setting."
    ) in configured
    typed = _explained(
        "fn clear_register(args: Args) -> anyhow::Result<()> {\n"
        '    anyhow::ensure!(args[0].chars().count() == 1, "Invalid register {}", &args[0]);\n'
        "    Ok(())\n"
        "}\n"
    )
    assert not any("configuration" in s for s in typed)  # `args`: what the caller typed
    platform = _explained(
        "fn hidden(config: &Config, dot: bool) -> anyhow::Result<()> {\n"
        "    if cfg!(unix) && config.ignore_hidden && dot {\n"
        '        anyhow::bail!("hidden files are filtered by default; add --hidden");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )  # fd: `cfg!(unix)` is the build's target, no setting to review
    assert "The check reads configuration (`config.ignore_hidden`): review that setting." in (
        platform
    )
    passed = explained_all(
        "fn sink(config: &Config) -> anyhow::Result<()> {\n"
        '    if config.kind != "append-only" && config.kind != "upsert" {\n'
        '        anyhow::bail!("unknown kind");\n'
        "    }\n"
        "    if config.commit_interval == 0 {\n"
        '        anyhow::bail!("`commit-interval` must be greater than 0");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )["`commit-interval` must be greater than 0"].solutions
    # risingwave's iceberg sink: the check above it passed (reading 146)
    assert "The check reads configuration (`config.commit_interval`): review that setting." in (
        passed
    )


def test_a_panic_that_prints_the_error_underneath_is_classed_by_its_words() -> None:
    explanation = explained(
        "fn claim(t: &mut Terminal) {\n"
        "    if let Err(err) = t.claim() {\n"
        '        panic!("Failed to open the terminal device: {}", err);\n'
        "    }\n"
        "}\n"
    )
    assert explanation.backgroundTag == "io-error"  # not "internal-invariant"
    assert explanation.handlingStrategy == "fail-fast"  # still a panic


def test_an_err_of_a_string_returns_err_with_this_message() -> None:
    """Not "returns an error built by `Err`": `Err("..")` builds nothing but the `Err`."""
    explanation = explained(
        "fn style(s: &str) -> Result<u8, &'static str> {\n    if s.is_empty() {\n"
        '        return Err("Invalid underline style");\n    }\n    Ok(1)\n}\n'
    )
    assert explanation.documentation.startswith(
        "`style` returns `Err` with this message in `src/x.rs`."
    )


def test_a_variant_built_with_a_text_says_its_own_message_is_what_users_read() -> None:
    """nushell's `ParseError::Expected("valid variable name")` shows as "Parse mismatch:
    expected valid variable name.": the literal is a value of the variant, not its text."""
    sentence = "This text is a value the error carries: what a user reads is"
    found = explained_all(
        "fn parse(s: &str) -> Result<u8, ParseError> {\n"
        '    if s.is_empty() {\n        return Err(ParseError::Expected("valid variable name"));\n'
        "    }\n"
        '    if s == "x" {\n        return Err(anyhow::Error::msg("x is taken"));\n    }\n'
        '    Err("no digits")\n'
        "}\n"
    )
    assert (
        f"{sentence} `ParseError::Expected`'s own message (its `Display`), which may put"
        " words around it."
    ) in found["valid variable name"].documentation
    assert sentence not in found["x is taken"].documentation  # a fn's text is the message
    assert sentence not in found["no digits"].documentation  # `Err` builds nothing else


def test_a_hostile_message_costs_linear_time_and_advises_nothing() -> None:
    """`, please` 100,000 times then `;end` made the clause search quadratic (64 KB took
    4 s): a sentence longer than any advice is none."""
    import time

    started = time.perf_counter()
    assert advice_in("x" + ", please" * 100_000 + ";end") == ()
    assert time.perf_counter() - started < 2.0


def test_the_configuration_path_is_found_in_linear_time() -> None:
    """One regex over `a.a.a...` (16 KB in a condition a repository wrote) took 5.6 s."""
    import time

    from pipeline.analyze.static_advice import _setting

    started = time.perf_counter()
    assert _setting("a." * 50_000 + "x") is None
    assert _setting("a." * 50_000 + "config.jobs > 1") == "a." * 100 + "config.jobs"
    assert time.perf_counter() - started < 1.0


def test_values_a_message_calling_itself_a_bug_prints_are_not_rejected_input() -> None:
    # nushell's CompileError: its help says "this is a compiler bug. Please report it"
    solutions = _explained(
        "fn f(reg_id: u32) -> anyhow::Result<()> {\n"
        '    anyhow::bail!("Invalid register {reg_id}: this is a compiler bug");\n}\n'
    )
    said = " ".join(solutions)
    assert "they say which input or object the failure is about" in said
    assert "correct that and try again" not in said


def test_a_value_the_advice_says_to_run_is_no_rejected_input() -> None:
    """uv's "Run `{}` to authenticate uv with pyx" prints the command to run: "they name the
    input or object that was rejected" was false. A value the advice says to remove still is."""
    command = _explained(
        "fn login(domain: &str) -> anyhow::Result<()> {\n"
        '    anyhow::bail!("Run `{}` to authenticate uv with pyx", format!("uv auth login {domain}"))\n'
        "}\n"
    )
    assert command[0].startswith('The message itself says what to do: "Run `{}` to authenticate')
    assert not any(s.startswith("Look at the value(s)") for s in command)
    removed = _explained(
        "fn query(name: &str) -> anyhow::Result<()> {\n"
        '    anyhow::bail!("Using {} is not allowed here. Hint: remove `{}` from the query", name, name)\n'
        "}\n"
    )
    assert any(s.startswith("Look at the value(s)") for s in removed)


def test_an_expect_that_says_a_call_cannot_be_done_is_a_failed_step_not_a_bug() -> None:
    """zellij's `stdout.write_all(..).expect("cannot write to stdout")`: the write failed (a
    closed terminal), "This is a bug, not something to fix in your input" was false. A
    `panic!` saying "cannot" still states what the code assumed, as does "cannot be"."""
    from pipeline.analyze.taxonomy import INTERNAL_INVARIANT

    write = explained(
        "fn show(out: &mut Stdout, b: &[u8]) {\n"
        '    out.write_all(b).expect("cannot write to stdout");\n'
        "}\n"
    )
    assert write.solutions[0].startswith("It panics here (`expect`) when a step fails")
    assert write.backgroundTag == "io-error"
    for assumed in (
        'fn f(v: Vec<u8>) { let n = NonZero::new(v.len()).expect("cannot be empty"); }\n',
        'fn f() { match kind() { K::Int => {}, k => panic!("cannot convert {k} to int") } }\n',
    ):
        explanation = explained(assumed)
        assert explanation.backgroundTag == INTERNAL_INVARIANT
        assert not explanation.solutions[0].startswith("It panics here")


def test_a_case_left_unimplemented_is_one_to_stay_out_of_not_a_bug() -> None:
    """uv's `unimplemented!("Only Windows and Unix are supported")` read "This is a bug, not
    something to fix in your input": the reader can take a case the code handles."""
    solutions = explained(
        "fn create() {\n"
        '    if cfg!(unix) { return; }\n    unimplemented!("Only Windows and Unix are supported")\n'
        "}\n"
    ).solutions
    assert solutions[0] == "The code does not handle this case yet."
    assert solutions[1].startswith("Stay out of that case: take another option, input or platform")
    assert not any("This is a bug" in s for s in solutions)


@pytest.mark.parametrize(
    ("message", "advice"),
    [
        # cargo's source replacement: one sentence wrapped at its width (reading 163)
        (
            "the source {orig} requires a lock file to be present first before it can be\n"
            "used against vendored source code\n\n"
            "remove the source replacement configuration, generate a lock file, and then\n"
            "restore the source replacement configuration to continue the build\n",
            (
                "remove the source replacement configuration, generate a lock file, and then "
                "restore the source replacement configuration to continue the build",
            ),
        ),
        ("please install it and\nrun it again", ("please install it and run it again",)),
        # a short line is a line of its own, and a bullet a point of its own
        ("could not find\nrun `cargo init` first", ("run `cargo init` first",)),
        ("failed to parse manifest\n- try running cargo update", ("try running cargo update",)),
    ],
)
def test_a_sentence_wrapped_over_lines_is_quoted_whole(
    message: str, advice: tuple[str, ...]
) -> None:
    assert advice_in(message) == advice
