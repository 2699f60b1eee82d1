; Python tags for codenav. Capture names are the contract (grammars/README.md).
; Checked against tree-sitter-language-pack 0.13.0's `python` grammar, where
; `expression_statement` is a hidden supertype: match its children directly.

; ---------------------------------------------------------------- definitions
; A name captured by several definition patterns keeps the widest @definition
; span (the decorated form); on equal spans the later pattern wins.

(class_definition
  name: (identifier) @name.definition.class
  body: (block . (string)? @doc)) @definition.class

(decorated_definition
  definition: (class_definition
    name: (identifier) @name.definition.class
    body: (block . (string)? @doc))) @definition.class

(function_definition
  name: (identifier) @name.definition.function
  body: (block . (string)? @doc)) @definition.function

(decorated_definition
  definition: (function_definition
    name: (identifier) @name.definition.function
    body: (block . (string)? @doc))) @definition.function

(decorated_definition
  (decorator [(identifier) @_dec (attribute attribute: (identifier) @_dec)])
  definition: (function_definition
    name: (identifier) @name.definition.property
    body: (block . (string)? @doc))
  (#match? @_dec "^(property|cached_property|setter|getter|deleter)$")) @definition.property

; Assignments: kept as nodes at module and class level; inside a function they
; are local bindings and stay references (codenav/index/extract.py).
(assignment left: (identifier) @name.definition.variable) @definition.variable
(assignment left: (pattern_list (identifier) @name.definition.variable)) @definition.variable
(assignment left: (tuple_pattern (identifier) @name.definition.variable)) @definition.variable

((assignment left: (identifier) @name.definition.constant) @definition.constant
  (#match? @name.definition.constant "^_*[A-Z][A-Z0-9_]*$"))
((assignment left: (pattern_list (identifier) @name.definition.constant)) @definition.constant
  (#match? @name.definition.constant "^_*[A-Z][A-Z0-9_]*$"))

(type_alias_statement left: (type (identifier) @name.definition.type)) @definition.type

; Module docstring.
(module . (string) @doc.module)

; ----------------------------------------------------------------- references
; Every node of the language's `identifiers` types (languages.toml) is a reference of
; kind `name` unless a pattern below gives it a more specific kind
; (import > export > decorator > inheritance > call > attribute > name).


(attribute
  object: (_) @reference.qualifier
  attribute: (identifier) @name.reference.attribute)

(call function: (identifier) @name.reference.call)
(call
  function: (attribute
    object: (_) @reference.qualifier
    attribute: (identifier) @name.reference.call))

(class_definition
  superclasses: (argument_list (identifier) @name.reference.inheritance))
(class_definition
  superclasses: (argument_list
    (attribute
      object: (_) @reference.qualifier
      attribute: (identifier) @name.reference.inheritance)))

(decorator (identifier) @name.reference.decorator)
(decorator (call function: (identifier) @name.reference.decorator))
(decorator
  (attribute
    object: (_) @reference.qualifier
    attribute: (identifier) @name.reference.decorator))
(decorator
  (call
    function: (attribute
      object: (_) @reference.qualifier
      attribute: (identifier) @name.reference.decorator)))

(import_statement (dotted_name (identifier) @name.reference.import))
(import_statement (aliased_import (dotted_name (identifier) @name.reference.import)))
(import_statement (aliased_import alias: (identifier) @name.reference.import))
(import_from_statement (dotted_name (identifier) @name.reference.import))
(import_from_statement (relative_import (dotted_name (identifier) @name.reference.import)))
(import_from_statement (aliased_import (dotted_name (identifier) @name.reference.import)))
(import_from_statement (aliased_import alias: (identifier) @name.reference.import))

; Names listed in `__all__` are references by string.
((assignment
  left: (identifier) @_all
  right: [(list (string (string_content) @name.reference.export))
          (tuple (string (string_content) @name.reference.export))])
  (#eq? @_all "__all__"))

; -------------------------------------------------------------------- imports
; One match is one binding: @import.module (with leading dots when relative),
; optional @import.name, @import.alias, or @import.wildcard.

(import_statement name: (dotted_name) @import.module) @import
(import_statement
  name: (aliased_import
    name: (dotted_name) @import.module
    alias: (identifier) @import.alias)) @import

(import_from_statement
  module_name: [(dotted_name) (relative_import)] @import.module
  name: (dotted_name) @import.name) @import
(import_from_statement
  module_name: [(dotted_name) (relative_import)] @import.module
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias)) @import
(import_from_statement
  module_name: [(dotted_name) (relative_import)] @import.module
  (wildcard_import) @import.wildcard) @import
