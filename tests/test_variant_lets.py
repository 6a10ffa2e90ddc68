"""`if let`, `while let` and `let .. else` bind a variant's one value as a dispatch arm
does: lemmy's community outbox takes `if let Ok(Ok(AnnouncableActivities::
CreateOrUpdatePost(inner))) = inner`, and `inner.verify(data)` is then the
`CreateOrUpdatePage` the variant holds, not a `verify` guessed by name (it went to the one
in the outbox's own crate, `VerifyUrlData::verify`). The name holds it in the `if`'s or
loop's block; a `let .. else` binds it to the end of its block."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

SOURCE = """\
pub enum Announcable { CreateOrUpdatePost(CreateOrUpdatePage), Vote(Vote) }
pub struct CreateOrUpdatePage;
impl CreateOrUpdatePage { pub fn verify(&self, d: u8) {} }
pub struct Vote;
impl Vote { pub fn verify(&self, d: u8) {} }
pub struct VerifyUrlData;
impl VerifyUrlData { pub fn verify(&self, d: u8) {} }
pub fn outbox(x: X) {
    let inner = x.dereference();
    if let Ok(Ok(Announcable::CreateOrUpdatePost(inner))) = inner {
        inner.verify(1);
    }
}
pub fn votes(it: It) {
    while let Some(Announcable::Vote(v)) = it.next() {
        v.verify(3);
    }
    let Announcable::Vote(w) = it.last() else { return; };
    w.verify(4);
    if let Some(a) = it.first() && let Announcable::CreateOrUpdatePost(page) = a {
        page.verify(5);
    }
}
"""


def test_a_variant_bound_by_if_let_while_let_and_let_else_types_its_name(
    tmp_path: Path,
) -> None:
    found = [e for e in calls_in(tmp_path, SOURCE) if e[2].endswith("::verify")]
    assert found == [
        ("outbox", 11, "CreateOrUpdatePage::verify", "type"),
        ("votes", 16, "Vote::verify", "type"),
        ("votes", 19, "Vote::verify", "type"),
        ("votes", 21, "CreateOrUpdatePage::verify", "type"),
    ]
