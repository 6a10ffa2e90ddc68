"""An error reached through an environment variable says which one, and what the path to it
needs of it (set, unset), from the shape of the code alone: a panic on an unset variable is
the environment's, not a bug; a check a guard makes is never advised away."""

from __future__ import annotations

import time

import pytest
from site_fixtures import explained

from pipeline.analyze.environment import environment_reads, failed_read, without_reads
from pipeline.analyze.static import explain
from pipeline.analyze.taxonomy import classify
from pipeline.languages import repository_modules
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan


def _reads(source: str) -> list[tuple[str, str]]:
    scan = find_sites("src/x.rs", source.encode())
    (site,) = scan.sites
    return [(r.name, r.need) for r in environment_reads(site.facts.conditions)]


@pytest.mark.parametrize(
    ("body", "reads"),
    [
        # rustup: the error is on the value of a variable that is set
        (
            'if let Ok(n) = process.var("RUSTUP_IO_THREADS") {\n'
            '    bail!("invalid value in RUSTUP_IO_THREADS: {}", n);\n}',
            [("RUSTUP_IO_THREADS", "set")],
        ),
        # the else of that `if let`, and a `let ... else`: the variable is missing
        (
            'if let Ok(v) = env::var("MY_HOME") {\n    use_it(v);\n} else {\n'
            '    bail!("no home");\n}',
            [("MY_HOME", "unset")],
        ),
        (
            'let Ok(home) = std::env::var("CARGO_HOME") else {\n    bail!("no cargo home");\n};',
            [("CARGO_HOME", "unset")],
        ),
        # the read itself failed
        ('let v = env::var("RW_CI").context("RW_CI must be set")?;', [("RW_CI", "unset")]),
        # a test of the read, alone or among tests that all held
        (
            'if env::var_os("NO_COLOR").is_some() {\n    bail!("no colour");\n}',
            [("NO_COLOR", "set")],
        ),
        ('if env::var("X_ON").is_ok() && flag {\n    bail!("both");\n}', [("X_ON", "set")]),
        ('if env::var("X_ON").is_err() {\n    bail!("off");\n}', [("X_ON", "unset")]),
        # a name that opens with underscores (nextest's test hook, reading 134)
        (
            'match std::env::var("__NEXTEST_TEST_VERSION") {\n'
            '    Ok(v) => bail!("bad version {v}"),\n    Err(_) => {}\n}',
            [("__NEXTEST_TEST_VERSION", "set")],
        ),
        # a read whose need the shape does not say
        (
            'if env::var("LEVEL").unwrap_or_default() == "x" {\n    bail!("x");\n}',
            [("LEVEL", "read")],
        ),
        ('if env::var("A_B").is_ok() || flag {\n    bail!("either");\n}', [("A_B", "read")]),
        # not an environment variable: a lower-case name (a template's), a name in a const
        ('if ctx.var("name").is_ok() {\n    bail!("template");\n}', []),
        ('if env::var(KEY).is_ok() {\n    bail!("const");\n}', []),
    ],
)
def test_what_the_path_needs_of_each_variable(body: str, reads: list[tuple[str, str]]) -> None:
    assert (
        _reads(f"fn f(flag: bool, process: &P, ctx: &C) -> Result<()> {{\n{body}\nOk(())\n}}\n")
        == reads
    )


def test_a_variable_that_must_be_set_for_the_error_is_named_and_may_be_unset() -> None:
    solutions = explained(
        "fn io_threads(p: &Process) -> Result<usize> {\n"
        '    if let Ok(n) = p.var("RUSTUP_IO_THREADS") {\n'
        '        return usize::from_str(&n).context("invalid value in RUSTUP_IO_THREADS");\n'
        "    }\n    Ok(1)\n}\n"
    ).solutions
    assert solutions[0] == (
        "The error is reached only while the environment variable `RUSTUP_IO_THREADS` is set: "
        'check its value (`echo "$RUSTUP_IO_THREADS"`) and correct it, or unset it '
        "(`unset RUSTUP_IO_THREADS`): the code takes this path only while it is set."
    )
    # `p` only reads the environment: no "pass values the check accepts" for it
    assert not any("`p`" in s for s in solutions)


def test_a_guard_on_a_variable_is_never_advised_away() -> None:
    solutions = explained(
        "fn check() -> Result<()> {\n"
        '    if let Ok(token) = env::var("API_TOKEN") {\n'
        '        if !valid(&token) { bail!("the API token is not valid"); }\n'
        "    }\n    Ok(())\n}\n"
    ).solutions
    assert any("`API_TOKEN` is set: check its value" in s for s in solutions)
    assert not any("unset API_TOKEN" in s for s in solutions)


def test_a_variable_tested_only_for_being_set_is_not_said_to_have_a_wrong_value() -> None:
    # sccache's config: `is_ok()` is true for any value, "" too; its value plays no part
    solutions = explained(
        "fn s3() -> Result<()> {\n"
        '    if env::var("SCCACHE_S3_NO_CREDENTIALS").is_ok() {\n'
        '        bail!("If setting S3 credentials, SCCACHE_S3_NO_CREDENTIALS must not be set.");\n'
        "    }\n    Ok(())\n}\n"
    ).solutions
    said = next(s for s in solutions if "SCCACHE_S3_NO_CREDENTIALS` is set" in s)
    assert "to any value, an empty one too" in said
    assert "`printenv SCCACHE_S3_NO_CREDENTIALS >/dev/null && echo set`" in said
    assert "check its value" not in said


def test_a_variable_tested_for_being_set_among_other_tests_has_no_value_to_look_at() -> None:
    # sccache's `no_credentials && (env::var_os("AWS_ACCESS_KEY_ID").is_some() || ..)`
    solutions = explained(
        "fn config(no_credentials: bool) -> Result<()> {\n"
        '    if no_credentials && (env::var_os("AWS_ACCESS_KEY_ID").is_some() || flag()) {\n'
        '        bail!("If setting S3 credentials, SCCACHE_S3_NO_CREDENTIALS must not be set.");\n'
        "    }\n    Ok(())\n}\n"
    ).solutions
    assert (
        "The check tests whether the environment variable `AWS_ACCESS_KEY_ID` is set, to any "
        "value, an empty one too (`printenv AWS_ACCESS_KEY_ID >/dev/null && echo set` tells); "
        "its value plays no part."
    ) in solutions
    assert not any("wc -c" in s for s in solutions)


def test_advice_never_prints_a_secret() -> None:
    solutions = explained(
        "fn key() -> Result<()> {\n"
        '    if let Ok(key) = env::var("AWS_SECRET_ACCESS_KEY") {\n'
        '        if key.len() < 40 { bail!("the secret key is too short"); }\n'
        "    }\n    Ok(())\n}\n"
    ).solutions
    said = next(s for s in solutions if "`AWS_SECRET_ACCESS_KEY` is set" in s)
    assert 'printf %s "$AWS_SECRET_ACCESS_KEY" | wc -c` gives its length' in said
    assert not any('echo "$AWS_SECRET_ACCESS_KEY"' in s for s in solutions)


def test_a_panic_on_an_unset_variable_is_the_environments_not_a_bug() -> None:
    source = 'fn ci() -> String {\n    std::env::var("RISINGWAVE_CI").expect("RISINGWAVE_CI must be set")\n}\n'
    explanation = explained(source)
    # after the message's own words ("RISINGWAVE_CI must be set"), the variable
    assert explanation.solutions[0].startswith("The message itself says what to do")
    assert explanation.solutions[1] == (
        "The error is reached when the environment variable `RISINGWAVE_CI` is not set or not "
        "valid Unicode: set it (`export RISINGWAVE_CI=<value>`) before you run the program again."
    )
    assert "This is a bug, not something to fix in your input" not in " ".join(
        explanation.solutions
    )
    assert explanation.exampleFix is not None
    assert "`RISINGWAVE_CI` is not set in the environment" in explanation.exampleFix
    assert "is a bug" not in explanation.exampleFix
    assert (
        explanation.preventionTips[0]
        == "Set `RISINGWAVE_CI` in the environment the program runs in."
    )
    texts = ['std::env::var("RISINGWAVE_CI") was None/Err (expect)']
    assert classify("RISINGWAVE_CI must be set", "expect", texts, path="src/x.rs") == (
        "configuration-error"
    )


def test_a_name_in_screaming_case_is_no_word_of_the_message() -> None:
    # `IO` inside `RUSTUP_IO_THREADS` made it an I/O error
    message = "invalid value in RUSTUP_IO_THREADS -- must be a natural number greater than zero"
    assert classify(message, "bail", path="src/x.rs") != "io-error"


def test_the_failed_read_and_the_reads_removed_are_found_in_linear_time() -> None:
    assert failed_read('env::var("RW_CI") was None/Err (expect)') == "RW_CI"
    assert failed_read('env::var("RW_CI").unwrap().parse() was None/Err (expect)') is None
    assert (
        without_reads('let Ok(n) = self.process().var("AB_C") && p.x') == "let Ok(n) = ENV && p.x"
    )
    hostile = "a." * 64_000 + 'var("XX")' + '.var("XX")' * 8_000
    started = time.perf_counter()
    without_reads(hostile)
    environment_reads([])
    assert time.perf_counter() - started < 1.0


def test_a_build_script_missing_what_cargo_always_sets_ran_outside_cargo() -> None:
    explanation = explained(
        path="crates/x/build.rs",
        source='fn main() {\n    let out = env::var_os("OUT_DIR").expect("set by cargo");\n}\n',
    )
    assert explanation.solutions[0] == (
        "Cargo sets `OUT_DIR` when it runs a build script: the script ran without it (by hand, "
        "or by a tool other than Cargo); build the package with Cargo (`cargo build`)."
    )
    assert explanation.exampleFix is not None
    assert explanation.exampleFix.endswith(
        "// A panic here means Cargo did not set `OUT_DIR`: build with Cargo."
    )
    # not "Set `OUT_DIR` in the environment the program runs in" (helix's build script,
    # reading 252: the tip said what the solution above it refutes)
    assert explanation.preventionTips[0] == (
        "Run the build script only through Cargo, which sets its environment."
    )


def test_a_build_script_missing_what_cargo_sets_in_some_builds_is_told_so() -> None:
    explanation = explained(
        path="scripts/build.rs",
        source='fn main() {\n    let f = std::env::var("CARGO_CFG_FEATURE").expect("set by cargo");\n}\n',
    )
    assert explanation.solutions[0].startswith(
        "Cargo sets `CARGO_CFG_FEATURE` for a build script only in some builds"
    )
    assert explanation.preventionTips[0] == (
        "Build with the features and target the package expects: Cargo sets "
        "`CARGO_CFG_FEATURE` for a build script only then."
    )


def test_a_build_script_path_that_needs_cargo_s_own_variable_unset_runs_outside_cargo() -> None:
    # rustup's build.rs: an override, then Cargo's TARGET; Cargo always sets TARGET, so the
    # panic is a run outside Cargo, not "set one of them" (reading 280: exporting TARGET is
    # no fix, and the script unwraps TARGET again further down)
    explanation = explained(
        path="build.rs",
        source="fn from_build() -> String {\n"
        '    if let Ok(t) = env::var("RUSTUP_OVERRIDE_BUILD_TUPLE") {\n        t\n'
        '    } else if let Ok(t) = env::var("TARGET") {\n        t\n'
        '    } else {\n        panic!("Unable to get target tuple from environment")\n    }\n}\n',
    )
    assert explanation.solutions[0] == (
        "Cargo sets `TARGET` when it runs a build script: the script ran without it (by hand, "
        "or by a tool other than Cargo); build the package with Cargo (`cargo build`)."
    )
    assert explanation.exampleFix is not None
    assert explanation.exampleFix.endswith(
        "// A panic here means Cargo did not set `TARGET`: build with Cargo."
    )
    assert explanation.preventionTips[0] == (
        "Run the build script only through Cargo, which sets its environment."
    )


def test_variables_the_path_needs_unset_are_one_sentence_and_setting_one_avoids_it() -> None:
    explanation = explained(
        path="src/main.rs",
        source="fn from_build() -> String {\n"
        '    if let Ok(t) = env::var("RUSTUP_OVERRIDE_BUILD_TUPLE") {\n        t\n'
        '    } else if let Ok(t) = env::var("TARGET") {\n        t\n'
        '    } else {\n        panic!("Unable to get target tuple from environment")\n    }\n}\n',
    )
    assert explanation.solutions[0] == (
        "The error is reached when none of the environment variables "
        "`RUSTUP_OVERRIDE_BUILD_TUPLE` or `TARGET` is set: set one of them "
        "(`export TARGET=<value>`) before you run the program again."
    )
    # the failed step comes first when the variable only chose the path to it
    solutions = explained(
        "fn install(p: &Process) -> Result<()> {\n"
        '    if p.var_os("RUSTUP_HOME").is_none() {\n'
        '        fs::create_dir_all(home).context("unable to create ~/.rustup")?;\n'
        "    }\n    Ok(())\n}\n"
    ).solutions
    said = (
        "The code takes this path only while the environment variable `RUSTUP_HOME` is not "
        "set: setting it (`export RUSTUP_HOME=<value>`) avoids it."
    )
    assert said in solutions
    assert solutions.index(said) > 0


def test_an_error_arm_after_the_not_present_arm_is_a_value_that_is_set() -> None:
    # risingwave: `Err(NotPresent)` takes a default; the `Err(_)` left is a value not Unicode
    body = (
        'let n = match std::env::var("TOKIO_WORKER_THREADS") {\n'
        "    Ok(v) => v.parse::<usize>().unwrap_or(1),\n"
        "    Err(std::env::VarError::NotPresent) => 4,\n"
        '    Err(_) => panic!("Failed to parse TOKIO_WORKER_THREADS"),\n};'
    )
    assert _reads(f"fn f() {{\n{body}\n}}\n") == [("TOKIO_WORKER_THREADS", "set")]
    missing = (
        'match env::var("RW_URL") {\n    Ok(u) => u,\n    Err(_) => bail!("RW_URL not set"),\n};'
    )
    assert _reads(f"fn f() -> Result<()> {{\nlet u = {missing}\nOk(())\n}}\n") == [
        ("RW_URL", "unset")
    ]


def test_a_build_script_is_the_one_the_manifest_names() -> None:
    # bat: `build = "build/main.rs"`, and its module `build/syntax_mapping.rs`
    path = "build/syntax_mapping.rs"
    source = 'fn out() -> String {\n    env::var("OUT_DIR").expect("set by cargo")\n}\n'
    manifest = b'[package]\nname = "bat"\nbuild = "build/main.rs"\n'
    files = ["src/lib.rs", "build/main.rs", path]
    modules = repository_modules({"Cargo.toml": manifest}, files)
    scan = find_sites(path, source.encode())
    (context,) = build_contexts("acme/w", "ab" * 20, RepoScan(scans={path: scan}), modules=modules)
    assert context.target == "build"
    assert (
        explain(context).solutions[0].startswith("Cargo sets `OUT_DIR` when it runs a build script")
    )
    # without a manifest, the file's name decides: this one is no build script
    assert not explained(source, path=path).solutions[0].startswith("Cargo sets")


def test_a_panic_on_a_variables_value_in_the_closure_that_got_it_is_the_environments() -> None:
    # polars: `POLARS_MAX_CACHED_METADATA_SCANS=abc` panics; no bug to report
    explanation = explained(
        "pub fn max_scans() -> usize {\n"
        '    std::env::var("POLARS_MAX_CACHED_METADATA_SCANS").map_or(8, |v| {\n'
        "        v.parse::<usize>()\n"
        '            .expect("invalid `POLARS_MAX_CACHED_METADATA_SCANS` value")\n'
        "    })\n}\n"
    )
    assert explanation.triggerScenarios.startswith(
        'In `max_scans`: 1. `std::env::var("POLARS_MAX_CACHED_METADATA_SCANS")` was Ok '
        "(`map_or`); 2. `v.parse::<usize>()` was Err (`expect`)"
    )
    assert explanation.solutions[0].startswith(
        "The error is reached only while the environment variable "
        "`POLARS_MAX_CACHED_METADATA_SCANS` is set: check its value"
    )
    assert "This is a bug, not something to fix in your input" not in explanation.solutions
    assert explanation.exampleFix is not None
    assert "is set to a value this code does not accept" in explanation.exampleFix
    assert "is a bug" not in explanation.exampleFix
    assert explanation.preventionTips[0] == (
        "Set `POLARS_MAX_CACHED_METADATA_SCANS` only to a value the program accepts, or leave "
        "it unset."
    )
    texts = ['std::env::var("POLARS_MAX_CACHED_METADATA_SCANS") was Ok (map_or)']
    assert classify("invalid value", "expect", texts) == "configuration-error"


@pytest.mark.parametrize(
    "body",
    [
        # an iterator's `map` runs for each item: nothing was Ok
        'names.iter().map(|v| v.parse::<usize>().expect("a number")).sum()',
        # the closure that gets the error, not the value
        'env::var("N").map_or_else(|e| panic!("no N: {e}"), |v| v.len())',
    ],
)
def test_only_the_closure_that_gets_a_variables_value_is_on_it(body: str) -> None:
    reads = _reads(f"fn f(names: &[String]) -> usize {{\n    {body}\n}}\n")
    assert ("N", "set") not in reads and all(need != "set" for _, need in reads)


def test_a_check_on_a_variable_named_in_the_code_is_one_a_shell_can_make() -> None:
    named = explained(
        "fn profile() -> Result<()> {\n"
        '    if std::env::var("RW_PROFILE_PATH").is_ok() {\n'
        '        bail!("Profiling is already running");\n    }\n    Ok(())\n}\n'
    )
    assert named.validationCode == 'let ok = std::env::var("RW_PROFILE_PATH").is_err();'
    # a variable whose name the caller passes: a check on it reads as one on the argument
    passed = explained(
        "fn fetch(key: &str) -> u64 {\n    match std::env::var(key) {\n"
        '        Err(std::env::VarError::NotUnicode(_)) => panic!("`{key}` is not unicode"),\n'
        "        _ => 0,\n    }\n}\n"
    )
    assert passed.validationCode is None


def test_a_check_that_verifies_integrity_is_never_advised_around() -> None:
    solutions = explained(
        "fn load(incoming: u64) -> Result<()> {\n"
        '    if std::env::var("X_SKIP_HASH_VERIFICATION").as_deref() != Ok("1") && incoming != 3 {\n'
        '        bail!("deserialization failed: hash {incoming} is not compatible");\n'
        "    }\n    Ok(())\n}\n"
    ).solutions
    assert not any(s.startswith("The code goes on only when") for s in solutions)
    assert any("do not switch it off" in s for s in solutions)


@pytest.mark.parametrize(
    "body",
    [
        # qdrant: the value through `.ok()`
        'std::env::var("X_DELAY").ok().map(|val| val.parse::<f64>().expect("invalid X_DELAY"))',
        # polars: through `.as_deref()`, which keeps the `Result`
        'let v: f64 = std::env::var("X_DELAY")\n'
        "        .as_deref()\n"
        '        .map(|x| x.parse().expect("integer"))\n'
        "        .unwrap_or(1.0)",
        # uv: the value an `if let` got
        'if let Ok(t) = std::env::var("X_DELAY") {\n'
        '    t.parse::<f64>().expect("X_DELAY must be a number");\n}',
    ],
)
def test_a_panic_on_a_value_the_path_got_from_the_environment_is_a_setting(body: str) -> None:
    explanation = explained(f"fn delay() {{\n    {body};\n}}\n")
    assert "Class: Configuration error." in explanation.documentation
    assert explanation.exampleFix is not None
    assert "`X_DELAY` is set to a value this code does not accept" in explanation.exampleFix


def test_a_variable_a_test_only_needs_set_is_not_the_value_a_panic_is_on() -> None:
    # uv's build script: the step failed, not the variable's value
    explanation = explained(
        "fn main() {\n"
        '    if std::env::var_os("CARGO_CFG_WINDOWS").is_some() {\n'
        '        embed_manifest(manifest).expect("unable to embed manifest");\n    }\n}\n'
    )
    assert explanation.exampleFix is not None
    assert "is set to a value" not in explanation.exampleFix
    assert not any("only to a value the program accepts" in t for t in explanation.preventionTips)


def test_a_panic_on_a_variable_s_value_is_the_environment_s_not_a_bug() -> None:
    """nextest's `current_version`: `match std::env::var("__NEXTEST_TEST_VERSION") {
    Ok(version) => version.parse().expect(..) }` read "a bug, not bad input: report it
    upstream" (reading 134, FALSE): the variable's value is what fails."""
    explanation = explained(
        "pub(crate) fn current_version() -> Version {\n"
        '    match std::env::var("__NEXTEST_TEST_VERSION") {\n'
        "        Ok(version) => version\n            .parse()\n"
        '            .expect("__NEXTEST_TEST_VERSION should be a valid semver version"),\n'
        "        Err(_) => Version::new(0, 9, 0),\n    }\n}\n"
    )
    assert explanation.backgroundTag == "configuration-error"
    assert explanation.solutions[0].startswith(
        "The error is reached only while the environment variable `__NEXTEST_TEST_VERSION` "
        "is set: check its value"
    )
    assert explanation.exampleFix.endswith(
        "// A panic here means `__NEXTEST_TEST_VERSION` is set to a value this code does not "
        "accept: correct it, or unset it."
    )
