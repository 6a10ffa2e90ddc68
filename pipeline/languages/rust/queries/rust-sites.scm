; Error sites in Rust. One pass per file; capture names map to site kinds:
;   @macro.*  error and panic macros (bare or path-qualified), filtered by name in sites.py;
;             `write!`/`writeln!` only in an error type's `Display` impl (sites.display_owner)
;   @attr.*   thiserror-style #[error("...")] attributes, snafu's #[snafu(display("..."))]
;   @method.* .expect("...") / .context("...") / .with_context(|| format!(...))
;   @ctor.*   error constructors that carry a literal message
;   @alias.*  `type XResult<T> = Result<T, XError>` aliases, for errorClass

(macro_invocation
  macro: [
    (identifier) @macro.name
    (scoped_identifier name: (identifier) @macro.name)
  ]
  (token_tree) @macro.args
  (#any-of? @macro.name
    "bail" "anyhow" "ensure" "format_err" "eyre" "panic" "unreachable" "todo"
    "unimplemented" "assert" "assert_eq" "assert_ne" "debug_assert" "debug_assert_eq"
    "debug_assert_ne" "write" "writeln")) @macro

(attribute_item
  (attribute
    [
      (identifier) @attr.name
      (scoped_identifier name: (identifier) @attr.name)
    ]
    arguments: (token_tree . "(" . [(string_literal) (raw_string_literal)] @attr.message))
  (#eq? @attr.name "error")) @attr

; snafu's `#[snafu(display("..", args))]`, also among other options (`#[snafu(visibility(pub),
; display(".."))]`): the same text, a site of the same kind
(attribute_item
  (attribute
    [
      (identifier) @attr.name
      (scoped_identifier name: (identifier) @attr.name)
    ]
    arguments: (token_tree
      (identifier) @attr.option
      .
      (token_tree . "(" . [(string_literal) (raw_string_literal)] @attr.message)))
  (#eq? @attr.name "snafu")
  (#eq? @attr.option "display")) @attr

(call_expression
  function: (field_expression field: (field_identifier) @method.name)
  arguments: (arguments . (_) @method.arg)
  (#any-of? @method.name "expect" "context" "with_context" "wrap_err" "wrap_err_with" "expect_err")) @method

(call_expression
  function: (scoped_identifier) @ctor.fn
  arguments: (arguments . [(string_literal) (raw_string_literal) (macro_invocation) (call_expression)] @ctor.arg)
  (#match? @ctor.fn "(Error|Status|Code)::[A-Za-z_][A-Za-z0-9_]*$")) @ctor

(call_expression
  function: (identifier) @errwrap.fn
  arguments: (arguments . [(string_literal) (raw_string_literal) (macro_invocation) (call_expression)] @errwrap.arg .)
  (#eq? @errwrap.fn "Err")) @errwrap

(type_item
  name: (type_identifier) @alias.name
  type: (generic_type) @alias.type) @alias
