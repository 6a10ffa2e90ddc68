"""A method of `Option` or `Result` called on a value the code types as one is the holder's:
pingora's `self.resp_header().map(|h| h.version)` on an `Option<&ResponseHeader>` was linked
to `ResponseHeader::map`, whose panic then read as met through `respect_keepalive` (reading
127, FALSE). The receiver's type is seen through the holder for the type inside
(`x.unwrap().f()` is `T::f`), but a method the holder has of that name is the holder's."""

from __future__ import annotations

from pathlib import Path

from test_reach import called_by, graph_of

SOURCE = """\
pub struct ResponseHeader {
    pub version: u8,
}

impl ResponseHeader {
    pub fn map<F: FnMut(&str)>(&self, mut f: F) {
        f("x");
        panic!("header iter mismatch");
    }

    pub fn is_none(&self) -> bool {
        false
    }
}

pub struct HttpSession {
    response_header: Option<Box<ResponseHeader>>,
    header: ResponseHeader,
}

impl HttpSession {
    pub fn resp_header(&self) -> Option<&ResponseHeader> {
        self.response_header.as_deref()
    }

    pub fn keepalive(&self) -> Option<u8> {
        self.resp_header().map(|h| h.version)
    }

    pub fn status(&self) -> Option<u8> {
        self.response_header.as_ref().map(|h| h.version)
    }

    pub fn given(&self, found: Option<ResponseHeader>) -> bool {
        found.is_none()
    }

    pub fn rebound(&self, found: Option<ResponseHeader>) {
        if let Some(found) = found {
            found.map(|name| drop(name));
        }
    }

    pub fn own(&self) {
        self.header.map(|name| drop(name));
    }

    pub fn unwrapped(&self) {
        self.resp_header().unwrap().map(|name| drop(name));
    }
}
"""


def test_a_holders_method_is_not_the_held_types(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "http"\n', "src/lib.rs": SOURCE})
    # an `Option` from a method's signature, from a field's declaration
    assert called_by(graph, "HttpSession::keepalive") == [(27, "HttpSession::resp_header", "self")]
    assert called_by(graph, "HttpSession::status") == []
    # a parameter's: only a method no held type would have (`is_none`), as a name may be
    # rebound to what it held (`if let Some(found) = found`), which its type does not say
    assert called_by(graph, "HttpSession::given") == []
    assert called_by(graph, "HttpSession::rebound") == [(40, "ResponseHeader::map", "type")]
    # the type itself, and the value the holder held (`unwrap()`): its own `map`
    assert called_by(graph, "HttpSession::own") == [(45, "ResponseHeader::map", "type")]
    assert called_by(graph, "HttpSession::unwrapped") == [
        (49, "HttpSession::resp_header", "self"),
        (49, "ResponseHeader::map", "type"),
    ]
