"""Issue 11: sites in macro token trees and messages built in a local are found."""

from __future__ import annotations

from pipeline.languages.rust.sites import find_sites

SOURCE = """\
impl Waiter {
    /// Waits for the barrier.
    pub async fn wait(&self, stop: Receiver, rx: Receiver) -> anyhow::Result<()> {
        tokio::select! {
            _ = stop.changed() => {
                bail!("stopped while waiting for the barrier");
            }
            res = rx.recv() => res.context("the receiver closed before the barrier")?,
        }
        fail_point!("fp", |_| Err(anyhow!("injected failure at the fail point")));
        println!("{}", self.x.expect("x must be set by now"));
        let msg = format!("job {} has no fragments left", self.id);
        if self.empty {
            bail!(msg);
        }
        let text = "the plan has no root".to_owned();
        if self.rootless {
            bail!("{text}");
        }
        Ok(())
    }
}

macro_rules! ensure_ok {
    ($e:expr) => {
        if !$e {
            bail!("the check {} failed in a macro", stringify!($e));
        }
    };
}

#[cfg(test)]
mod tests {
    fn t() { tokio::select! { _ = a => { bail!("only a test selects this"); } } }
}
"""


def test_sites_in_token_trees_and_locals_are_found_with_their_fn() -> None:
    sites = {s.message: s for s in find_sites("src/waiter.rs", SOURCE.encode()).sites}
    assert set(sites) == {
        "stopped while waiting for the barrier",
        "the receiver closed before the barrier",
        "injected failure at the fail point",
        "x must be set by now",
        "job {} has no fragments left",
        "the plan has no root",
        "the check {} failed in a macro",
    }
    stopped = sites["stopped while waiting for the barrier"]
    assert (stopped.line, stopped.facts.enclosing_fn, stopped.facts.enclosing_impl) == (
        6,
        "wait",
        "Waiter",
    )
    assert sites["x must be set by now"].facts.receiver == "self.x"
    assert sites["job {} has no fragments left"].line == 14
    assert [c.text for c in sites["job {} has no fragments left"].facts.conditions] == [
        "self.empty"
    ]
    assert [c.text for c in sites["the check {} failed in a macro"].facts.conditions] == ["!$e"]


def test_err_of_a_call_that_carries_a_literal_is_a_constructor_site() -> None:
    source = """\
fn f(x: u8) -> Result<(), E> {
    if x == 1 {
        return Err(internal("finished with jobs still left in the queue"));
    }
    if x == 2 {
        return Err(
            RenderErrorReason::Other("options blocks cannot be nested here".to_string()).into(),
        );
    }
    Err(catalog_not_found("table", x))
}
"""
    sites = find_sites("src/f.rs", source.encode()).sites
    assert [(s.line, s.kind, s.macro, s.message) for s in sites] == [
        (3, "constructor", "internal", "finished with jobs still left in the queue"),
        (6, "constructor", "RenderErrorReason::Other", "options blocks cannot be nested here"),
    ]


def test_a_literal_a_helper_of_the_file_writes_into_its_message_reads_as_that_message() -> None:
    """risingwave's SQL Server sink: `Err(data_type_not_supported("Vector"))` fails with
    "Vector is not supported in SQL Server", the helper's text; the record said "Vector",
    which no user reads (reading 320). A helper that writes no such text, or one the file
    does not define, leaves the literal as the message."""
    source = """\
fn data_type_not_supported(data_type_name: &str) -> SinkError {
    SinkError::SqlServer(anyhow!(format!(
        "{data_type_name} is not supported in SQL Server"
    )))
}
fn wrap(text: &str) -> E {
    E::Other(text.to_owned())
}
fn check(data_type: &DataType) -> Result<()> {
    match data_type {
        DataType::Vector(_) => Err(data_type_not_supported("Vector {x}")),
        DataType::Map(_) => Err(wrap("maps are not supported here")),
        _ => Err(elsewhere("lists are not supported here")),
    }
}
"""
    sites = find_sites("src/sink.rs", source.encode()).sites
    assert [(s.line, s.kind, s.message) for s in sites] == [
        (2, "anyhow", "{data_type_name} is not supported in SQL Server"),
        (11, "constructor", "Vector {{x}} is not supported in SQL Server"),
        (12, "constructor", "maps are not supported here"),
        (13, "constructor", "lists are not supported here"),
    ]


def test_a_conversion_of_a_conversion_carries_the_message() -> None:
    source = """\
fn check(x: u64) -> Result<()> {
    if x > 3 {
        return Err(ErrorCode::CatalogError(
            "rw_timestamp is too large, need to be less than now".to_owned().into(),
        )
        .into());
    }
    Ok(())
}
"""
    [site] = find_sites("src/c.rs", source.encode()).sites
    assert (site.line, site.message) == (3, "rw_timestamp is too large, need to be less than now")


def test_every_message_of_a_closure_is_a_site() -> None:
    source = """\
fn load(path: &Path, strict: bool) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| {
        if strict {
            return format!("strict mode cannot read `{}`", path.display());
        }
        match path.extension() {
            Some(_) => format!("failed to read the file `{}`", path.display()),
            None => "failed to read a file without an extension".to_string(),
        }
    })
}
"""
    sites = find_sites("src/load.rs", source.encode()).sites
    assert sorted(s.message for s in sites) == [
        "failed to read a file without an extension",
        "failed to read the file `{}`",
        "strict mode cannot read `{}`",
    ]
    assert {s.line for s in sites} == {2}
