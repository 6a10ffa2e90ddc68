"""The word `status` in a site's checks names an object's state, unless the checks read a
response's or a process's status: atuin's `match status { UNAUTHORIZED => .., FORBIDDEN =>
.., _ => bail!("Hub password change failed with status {status}") }` after
`status.is_success()` read "Invalid state transition" and "order the steps" (reading 327)."""

from __future__ import annotations

from site_fixtures import explained_all

SOURCE = """\
pub async fn change_password(client: &Client, body: &Body) -> anyhow::Result<()> {
    let resp = client.post(URL).json(body).send().await?;
    let status = resp.status();
    if status.is_success() {
        return Ok(());
    }
    match status {
        StatusCode::UNAUTHORIZED => anyhow::bail!("current password is incorrect"),
        _ => anyhow::bail!("Hub password change failed with status {status}"),
    }
}

pub fn verify(resp: &Answer) -> anyhow::Result<()> {
    if resp.status == "0" {
        anyhow::bail!("verification did not go through: {}", resp.result);
    }
    Ok(())
}

pub fn advance(&mut self) -> anyhow::Result<()> {
    match self.status {
        Status::Open => Ok(()),
        _ => anyhow::bail!("cannot advance the ticket"),
    }
}
"""


def test_a_response_s_status_in_the_checks_chooses_no_class_of_state() -> None:
    found = explained_all(SOURCE, "src/hub.rs")
    for message in (
        "Hub password change failed with status {status}",
        "verification did not go through: {}",
    ):
        assert found[message].backgroundTag == "operation-failed", message
        assert "status" not in found[message].documentation.rpartition("Class")[2]


def test_an_object_s_status_still_says_its_state() -> None:
    advance = explained_all(SOURCE, "src/hub.rs")["cannot advance the ticket"]
    assert advance.backgroundTag == "invalid-state-transition"
