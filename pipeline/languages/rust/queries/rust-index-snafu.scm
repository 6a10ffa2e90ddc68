; Added to `rust-index.scm` for a file that says `Snafu`: a snafu context selector written
; as a bare name, in an expression or a macro's tokens (`.context(ListCatalogsSnafu)?`,
; `ensure!(ok, TableNotFoundSnafu { table })`, `error::RawSnafu.fail()`).
((identifier) @build (#match? @build "^[A-Z][A-Za-z0-9]*Snafu$"))
