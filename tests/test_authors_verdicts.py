"""An error its authors' comment says cannot come about ("This should never happen") is the
program's own broken assumption: no value a caller passes is the one to correct (qdrant's
`IncompatibleSchema` right after the index was deleted, reading 144)."""

from __future__ import annotations

from site_fixtures import explained_all

SOURCE = """\
pub fn attach(shards: &Shards, id: u32) -> anyhow::Result<()> {
    let Some(shard) = shards.get(id) else {
        // Paranoia check: this shouldn't happen: we hold the lock for this tenant.
        return Err(anyhow::anyhow!("shard {id} vanished while attached"));
    };
    // This should never happen: the router only calls us
    // with a path.
    if shard.path.is_empty() {
        anyhow::bail!("shard {id} has no path");
    }
    if shard.len > 10 {
        anyhow::bail!("shard {id} is too long"); // can't happen, the config caps it
    }
    if shard.peers == 0 {
        // the peer is unreachable, or the panic `unreachable!` would be wrong here
        anyhow::bail!("no peer found for shard {id}");
    }
    Ok(())
}
"""


def test_the_comment_above_the_return_or_the_if_that_leads_to_it_is_the_authors_verdict() -> None:
    found = explained_all(SOURCE, "src/shards.rs")
    vanished = found["shard {id} vanished while attached"]
    assert vanished.backgroundTag == "internal-invariant"
    assert vanished.documentation.endswith(
        "Its authors' comment at it says: \"Paranoia check: this shouldn't happen: we hold "
        'the lock for this tenant."'
    )
    assert vanished.solutions[0] == (
        "Its authors' comment says this should not come about (\"Paranoia check: this "
        "shouldn't happen: we hold the lock for this tenant.\"): if it shows, an assumption "
        "of the code's did not hold; report it upstream with the full message and what led "
        "to it."
    )
    no_path = found["shard {id} has no path"]
    assert no_path.backgroundTag == "internal-invariant"
    assert "the router only calls us with a path." in no_path.documentation  # whole sentence
    assert not any("the values its caller passes decide it" in s for s in no_path.solutions)
    assert found["shard {id} is too long"].backgroundTag == "internal-invariant"  # trailing


def test_a_peer_that_is_unreachable_or_the_macro_named_is_no_verdict() -> None:
    peers = explained_all(SOURCE, "src/shards.rs")["no peer found for shard {id}"]
    assert peers.backgroundTag == "not-found"
    assert "Its authors' comment" not in peers.documentation
    assert not any("Its authors' comment" in s for s in peers.solutions)
