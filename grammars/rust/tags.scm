; Rust tags for codenav. Capture names are the contract (grammars/README.md).
; Checked against tree-sitter-language-pack 0.13.0's `rust` grammar.

; ---------------------------------------------------------------- definitions

(struct_item name: (type_identifier) @name.definition.struct) @definition.struct
(union_item name: (type_identifier) @name.definition.union) @definition.union
(enum_item name: (type_identifier) @name.definition.enum) @definition.enum
(trait_item name: (type_identifier) @name.definition.trait) @definition.trait
(type_item name: (type_identifier) @name.definition.type) @definition.type
(macro_definition name: (identifier) @name.definition.macro) @definition.macro
; An inline module (`mod tests { … }`); `mod x;` names a file and is an import below.
(mod_item name: (identifier) @name.definition.module body: (declaration_list)) @definition.module

; A field's @definition.type: its type, behind a reference or a smart pointer.
(field_declaration name: (field_identifier) @name.definition.field) @definition.field
(field_declaration name: (field_identifier) @name.definition.field
  type: [(type_identifier) (scoped_type_identifier)] @definition.type) @definition.field
(field_declaration name: (field_identifier) @name.definition.field
  type: (reference_type type: [(type_identifier) (scoped_type_identifier)] @definition.type))
  @definition.field
((field_declaration name: (field_identifier) @name.definition.field
  type: (generic_type type: (type_identifier) @_pointer
    type_arguments: (type_arguments . [(type_identifier) (scoped_type_identifier)]
                                      @definition.type .))) @definition.field
  (#match? @_pointer "^(Box|Rc|Arc)$"))
(enum_variant name: (identifier) @name.definition.variant) @definition.variant

(const_item name: (identifier) @name.definition.constant
  type: [(type_identifier) (scoped_type_identifier)]? @definition.type) @definition.constant
(static_item name: (identifier) @name.definition.variable
  type: [(type_identifier) (scoped_type_identifier)]? @definition.type) @definition.variable

; Functions (methods when their parent is a trait): @definition.type is the return type
; (`Self` is the impl's type: below).
(function_item name: (identifier) @name.definition.function) @definition.function
((function_item
  name: (identifier) @name.definition.function
  return_type: [(type_identifier) (scoped_type_identifier)] @definition.type) @definition.function
  (#not-eq? @definition.type "Self"))
(function_signature_item name: (identifier) @name.definition.function) @definition.function
((function_signature_item
  name: (identifier) @name.definition.function
  return_type: [(type_identifier) (scoped_type_identifier)] @definition.type) @definition.function
  (#not-eq? @definition.type "Self"))

; Methods of `impl Type` / `impl Trait for Type` go into Type (@definition.owner); an impl
; for `&Type` or `Box<Type>` into Type; for any other type (`[T]`, `(A, B)`, `dyn X`) under
; that type's text, never at the top level as if free functions.
(impl_item
  type: [(type_identifier) @definition.owner
         (scoped_type_identifier) @definition.owner
         (generic_type type: [(type_identifier) (scoped_type_identifier)] @definition.owner)
         (reference_type type: [(type_identifier) (scoped_type_identifier)] @definition.owner)
         (reference_type type: (generic_type
           type: [(type_identifier) (scoped_type_identifier)] @definition.owner))
         (primitive_type) @definition.owner
         (array_type) @definition.owner
         (tuple_type) @definition.owner
         (dynamic_type) @definition.owner
         (function_type) @definition.owner
         (pointer_type) @definition.owner
         (reference_type type: [(primitive_type) (array_type) (tuple_type)
                                (dynamic_type)] @definition.owner)]
  body: (declaration_list
    (function_item name: (identifier) @name.definition.method) @definition.method))
((impl_item
  type: [(type_identifier) @definition.owner
         (scoped_type_identifier) @definition.owner
         (generic_type type: [(type_identifier) (scoped_type_identifier)] @definition.owner)
         (reference_type type: [(type_identifier) (scoped_type_identifier)] @definition.owner)
         (reference_type type: (generic_type
           type: [(type_identifier) (scoped_type_identifier)] @definition.owner))
         (primitive_type) @definition.owner
         (array_type) @definition.owner
         (tuple_type) @definition.owner
         (dynamic_type) @definition.owner
         (function_type) @definition.owner
         (pointer_type) @definition.owner
         (reference_type type: [(primitive_type) (array_type) (tuple_type)
                                (dynamic_type)] @definition.owner)]
  body: (declaration_list
    (function_item
      name: (identifier) @name.definition.method
      return_type: [(type_identifier) (scoped_type_identifier)] @definition.type) @definition.method))
  (#not-eq? @definition.type "Self"))
; `fn new() -> Self`: calling it makes the impl's type.
((impl_item
  type: [(type_identifier) @definition.owner @definition.type
         (scoped_type_identifier) @definition.owner @definition.type
         (generic_type type: [(type_identifier) (scoped_type_identifier)]
                       @definition.owner @definition.type)]
  body: (declaration_list
    (function_item
      name: (identifier) @name.definition.method
      return_type: (type_identifier) @_self) @definition.method))
  (#eq? @_self "Self"))
(impl_item
  type: [(type_identifier) @definition.owner
         (scoped_type_identifier) @definition.owner
         (generic_type type: [(type_identifier) (scoped_type_identifier)] @definition.owner)
         (reference_type type: [(type_identifier) (scoped_type_identifier)] @definition.owner)
         (reference_type type: (generic_type
           type: [(type_identifier) (scoped_type_identifier)] @definition.owner))
         (primitive_type) @definition.owner
         (array_type) @definition.owner
         (tuple_type) @definition.owner
         (dynamic_type) @definition.owner
         (function_type) @definition.owner
         (pointer_type) @definition.owner
         (reference_type type: [(primitive_type) (array_type) (tuple_type)
                                (dynamic_type)] @definition.owner)]
  body: (declaration_list
    (const_item name: (identifier) @name.definition.constant) @definition.constant))
(impl_item
  type: [(type_identifier) @definition.owner
         (scoped_type_identifier) @definition.owner
         (generic_type type: [(type_identifier) (scoped_type_identifier)] @definition.owner)
         (reference_type type: [(type_identifier) (scoped_type_identifier)] @definition.owner)
         (reference_type type: (generic_type
           type: [(type_identifier) (scoped_type_identifier)] @definition.owner))
         (primitive_type) @definition.owner
         (array_type) @definition.owner
         (tuple_type) @definition.owner
         (dynamic_type) @definition.owner
         (function_type) @definition.owner
         (pointer_type) @definition.owner
         (reference_type type: [(primitive_type) (array_type) (tuple_type)
                                (dynamic_type)] @definition.owner)]
  body: (declaration_list
    (type_item name: (type_identifier) @name.definition.type) @definition.type))

; Doc comments (`///`, `/** */`) above an item are its doc by the comment rule; the
; crate's or module's own (`//!`) doc:
(source_file . (line_comment (inner_doc_comment_marker) (doc_comment) @doc.module))

; ----------------------------------------------------------------- references

(field_expression field: (field_identifier) @name.reference.attribute)
(scoped_identifier name: (identifier) @name.reference.attribute)
(scoped_type_identifier name: (type_identifier) @name.reference.attribute)

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(call_expression function: (scoped_identifier name: (identifier) @name.reference.call))
(call_expression function: (generic_function function: (identifier) @name.reference.call))
(call_expression function: (generic_function
  function: [(scoped_identifier name: (identifier) @name.reference.call)
             (field_expression field: (field_identifier) @name.reference.call)]))
(macro_invocation macro: (identifier) @name.reference.call)
(macro_invocation macro: (scoped_identifier name: (identifier) @name.reference.call))

; Supertraits, and the trait an impl implements, are inheritance.
(trait_item bounds: (trait_bounds [(type_identifier) @name.reference.inheritance
                                   (scoped_type_identifier name: (type_identifier) @name.reference.inheritance)
                                   (generic_type type: (type_identifier) @name.reference.inheritance)]))
(impl_item trait: [(type_identifier) @name.reference.inheritance
                   (scoped_type_identifier name: (type_identifier) @name.reference.inheritance)
                   (generic_type type: (type_identifier) @name.reference.inheritance)])
; … made for the implementing type when the file declares it: its base, so that its
; values find the trait's provided methods.
(impl_item
  trait: [(type_identifier) @name.reference.inheritance
          (scoped_type_identifier name: (type_identifier) @name.reference.inheritance)
          (generic_type type: (type_identifier) @name.reference.inheritance)]
  type: [(type_identifier) @reference.owner
         (generic_type type: (type_identifier) @reference.owner)
         (reference_type type: (type_identifier) @reference.owner)])

; Every identifier of a `use` is an import reference.
(use_declaration argument: (identifier) @name.reference.import)
(use_declaration argument: (scoped_identifier (identifier) @name.reference.import))
(use_declaration argument: (scoped_identifier (scoped_identifier (identifier) @name.reference.import)))
(use_declaration argument: (scoped_identifier (scoped_identifier (scoped_identifier (identifier) @name.reference.import))))
(use_declaration argument: (scoped_identifier (scoped_identifier (scoped_identifier (scoped_identifier (identifier) @name.reference.import)))))
(use_as_clause path: (identifier) @name.reference.import)
(use_as_clause path: (scoped_identifier (identifier) @name.reference.import))
(use_as_clause path: (scoped_identifier (scoped_identifier (identifier) @name.reference.import)))
(use_as_clause path: (scoped_identifier (scoped_identifier (scoped_identifier (identifier) @name.reference.import))))
(use_as_clause alias: (identifier) @name.reference.import)
(scoped_use_list path: (identifier) @name.reference.import)
(scoped_use_list path: (scoped_identifier (identifier) @name.reference.import))
(scoped_use_list path: (scoped_identifier (scoped_identifier (identifier) @name.reference.import)))
(scoped_use_list path: (scoped_identifier (scoped_identifier (scoped_identifier (identifier) @name.reference.import))))
(use_list (identifier) @name.reference.import)
(use_wildcard (identifier) @name.reference.import)
(use_wildcard (scoped_identifier (identifier) @name.reference.import))
(use_wildcard (scoped_identifier (scoped_identifier (identifier) @name.reference.import)))
(use_wildcard (scoped_identifier (scoped_identifier (scoped_identifier (identifier) @name.reference.import))))
(mod_item !body name: (identifier) @name.reference.import)

; The fields of a struct literal are its type's (kind `field`): `LowArgs { buffer: x }`,
; `Self { buffer }` (a shorthand: the field, which takes the local of its name).
(struct_expression
  name: [(type_identifier) (scoped_type_identifier)] @reference.receiver
  body: (field_initializer_list (field_initializer field: (field_identifier) @name.reference.field)))
(struct_expression
  name: [(type_identifier) (scoped_type_identifier)] @reference.receiver
  body: (field_initializer_list (shorthand_field_initializer (identifier) @name.reference.field)))

; Inside a macro call's tokens (`assert_eq!(CaseMode::Insensitive, m.dirs.len())`), a name
; after `::` or `.` is a member of the name before it, as the expansion reads it.
(token_tree (identifier) @reference.receiver . "::" . (identifier) @name.reference.attribute)
(token_tree (identifier) @reference.receiver . "." . (identifier) @name.reference.attribute)

; -------------------------------------------------------------------- imports
; `use a::b::C [as D]`, `use a::b::{C, D as E}`, `use a::b::{self}`, `use a::b::*`, `use a`,
; and `mod x;` (the file x.rs or x/mod.rs). The module system reads `crate::`, `self::`,
; `super::` relative to the file's module, so a `use` inside an inline `mod { … }` is an
; import only when it starts at `crate::` (its `self` and `super` are not the file's).

(source_file (use_declaration argument: (scoped_identifier
    path: (_) @import.module name: (identifier) @import.name)) @import)
(source_file (use_declaration argument: (use_as_clause
    path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
    alias: (identifier) @import.alias)) @import)
(source_file (use_declaration argument: (use_as_clause
    path: (identifier) @import.module alias: (identifier) @import.alias)) @import)
(source_file (use_declaration argument: (identifier) @import.module) @import)
(source_file (use_declaration argument: (scoped_use_list
    path: (_) @import.module list: (use_list (identifier) @import.name))) @import)
(source_file (use_declaration argument: (scoped_use_list
    path: (_) @import.module
    list: (use_list (use_as_clause path: (identifier) @import.name
                                   alias: (identifier) @import.alias)))) @import)
(source_file (use_declaration argument: (use_wildcard (_) @import.module) @import.wildcard) @import)
(source_file (use_declaration argument: (scoped_use_list
    path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
    list: (use_list (self)))) @import)
(source_file (use_declaration argument: (scoped_use_list
    path: (identifier) @import.module list: (use_list (self)))) @import)

; A group inside a group (`use crate::flags::{Flag, lowargs::{BufferMode, Mode as M}}`): the
; module is the paths of both, joined; and the groups of a bare `use {a::B, c::D as E};`.
(source_file (use_declaration argument: (scoped_use_list path: (_) @import.module
  list: (use_list (scoped_use_list path: (_) @import.module
    list: (use_list (identifier) @import.name))))) @import)
(source_file (use_declaration argument: (scoped_use_list path: (_) @import.module
  list: (use_list (scoped_use_list path: (_) @import.module
    list: (use_list (use_as_clause path: (identifier) @import.name
                                   alias: (identifier) @import.alias)))))) @import)
(source_file (use_declaration argument: (scoped_use_list path: (_) @import.module
  list: (use_list (scoped_identifier path: (_) @import.module name: (identifier) @import.name))))
  @import)
(source_file (use_declaration argument: (scoped_use_list path: (_) @import.module
  list: (use_list (scoped_use_list path: (_) @import.module
    list: (use_list (scoped_use_list path: (_) @import.module
      list: (use_list (identifier) @import.name))))))) @import)
(source_file (use_declaration argument: (use_list
  (scoped_identifier path: (_) @import.module name: (identifier) @import.name))) @import)
(source_file (use_declaration argument: (use_list (use_as_clause
  path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
  alias: (identifier) @import.alias))) @import)
(block (use_declaration argument: (scoped_use_list path: (_) @import.module
  list: (use_list (scoped_use_list path: (_) @import.module
    list: (use_list (identifier) @import.name))))) @import)
(block (use_declaration argument: (scoped_use_list path: (_) @import.module
  list: (use_list (scoped_identifier path: (_) @import.module name: (identifier) @import.name))))
  @import)

(block (use_declaration argument: (scoped_identifier
    path: (_) @import.module name: (identifier) @import.name)) @import)
(block (use_declaration argument: (use_as_clause
    path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
    alias: (identifier) @import.alias)) @import)
(block (use_declaration argument: (use_as_clause
    path: (identifier) @import.module alias: (identifier) @import.alias)) @import)
(block (use_declaration argument: (identifier) @import.module) @import)
(block (use_declaration argument: (scoped_use_list
    path: (_) @import.module list: (use_list (identifier) @import.name))) @import)
(block (use_declaration argument: (scoped_use_list
    path: (_) @import.module
    list: (use_list (use_as_clause path: (identifier) @import.name
                                   alias: (identifier) @import.alias)))) @import)
(block (use_declaration argument: (use_wildcard (_) @import.module) @import.wildcard) @import)
(block (use_declaration argument: (scoped_use_list
    path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
    list: (use_list (self)))) @import)
(block (use_declaration argument: (scoped_use_list
    path: (identifier) @import.module list: (use_list (self)))) @import)

((declaration_list (use_declaration argument: (scoped_identifier
    path: (_) @import.module name: (identifier) @import.name)) @import)
  (#match? @import.module "^crate(::|$)"))
((declaration_list (use_declaration argument: (use_as_clause
    path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
    alias: (identifier) @import.alias)) @import)
  (#match? @import.module "^crate(::|$)"))
((declaration_list (use_declaration argument: (use_as_clause
    path: (identifier) @import.module alias: (identifier) @import.alias)) @import)
  (#match? @import.module "^crate(::|$)"))
((declaration_list (use_declaration argument: (identifier) @import.module) @import)
  (#match? @import.module "^crate(::|$)"))
((declaration_list (use_declaration argument: (scoped_use_list
    path: (_) @import.module list: (use_list (identifier) @import.name))) @import)
  (#match? @import.module "^crate(::|$)"))
((declaration_list (use_declaration argument: (scoped_use_list
    path: (_) @import.module
    list: (use_list (use_as_clause path: (identifier) @import.name
                                   alias: (identifier) @import.alias)))) @import)
  (#match? @import.module "^crate(::|$)"))
((declaration_list (use_declaration argument: (use_wildcard (_) @import.module) @import.wildcard) @import)
  (#match? @import.module "^crate(::|$)"))
((declaration_list (use_declaration argument: (scoped_use_list
    path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
    list: (use_list (self)))) @import)
  (#match? @import.module "^crate(::|$)"))
((declaration_list (use_declaration argument: (scoped_use_list
    path: (identifier) @import.module list: (use_list (self)))) @import)
  (#match? @import.module "^crate(::|$)"))

(source_file (mod_item !body name: (identifier) @import.module) @import)

; --------------------------------------------------------------------- scopes

(function_item) @local.scope
(closure_expression) @local.scope
(block) @local.scope
(match_arm) @local.scope
(impl_item) @local.scope
; Members are reached through a type, never by their bare name.
(trait_item body: (declaration_list) @local.scope.hidden)
(field_declaration_list) @local.scope.hidden
(enum_variant_list) @local.scope.hidden
; An inline module's items are its own.
(mod_item body: (declaration_list) @local.scope)

; ---------------------------------------------------------------- local names

(parameter pattern: (identifier) @local.definition
  type: [(type_identifier) (scoped_type_identifier)] @local.type)
(parameter pattern: (identifier) @local.definition
  type: (reference_type type: [(type_identifier) (scoped_type_identifier)] @local.type))
(parameter pattern: (identifier) @local.definition
  type: (generic_type type: (type_identifier) @local.type))
(parameter pattern: (identifier) @local.definition)
(closure_parameters (identifier) @local.definition)
(closure_parameters (parameter pattern: (identifier) @local.definition))
(type_parameters (type_parameter name: (type_identifier) @local.definition))

(let_declaration pattern: (identifier) @local.definition
  type: [(type_identifier) (scoped_type_identifier)] @local.type)
(let_declaration pattern: (identifier) @local.definition
  type: (generic_type type: (type_identifier) @local.type))
(let_declaration pattern: (identifier) @local.definition
  type: (reference_type type: [(type_identifier) (scoped_type_identifier)] @local.type))
; `let x = Type::new(…)`, `let x = Type { … }`, `let x = make()`: what it makes.
((let_declaration pattern: (identifier) @local.definition
  value: (call_expression function: (scoped_identifier
    path: [(identifier) (scoped_identifier)] @local.type name: (identifier) @_new)))
  (#match? @_new "^(new|default|from)$"))
(let_declaration pattern: (identifier) @local.definition
  value: (struct_expression name: [(type_identifier) (scoped_type_identifier)] @local.type))
(let_declaration pattern: (identifier) @local.definition
  value: (call_expression function: (identifier) @local.type))
(let_declaration pattern: (identifier) @local.definition)
(for_expression pattern: (identifier) @local.definition)
(let_condition pattern: (identifier) @local.definition)
(match_pattern (identifier) @local.definition)
; Names bound inside patterns; the path of `Kind::Square(x)` / `Some(x)` is not one.
([(tuple_pattern) (slice_pattern) (ref_pattern) (mut_pattern) (reference_pattern)
  (or_pattern) (captured_pattern)] (identifier) @local.definition)
(tuple_struct_pattern type: (_) (identifier) @local.definition)
(field_pattern name: (shorthand_field_identifier) @local.definition)
(field_pattern pattern: (identifier) @local.definition)
(shorthand_field_initializer (identifier) @local.definition)
; The field names of a struct literal (`Store { cache: … }`) are bound here so that they
; link nowhere rather than to whatever the name means around the literal.
(field_initializer field: (field_identifier) @local.definition)

; `Self` is the impl's type: `Self::new()` is read through the receiver (`receiver_aliases`);
; alone it links nowhere rather than to a free name.
((identifier) @local.definition (#match? @local.definition "^(Self|_)$"))
((type_identifier) @local.definition (#eq? @local.definition "Self"))
; An attribute's name (`#[test]`, `#[derive(…)]`) is no use of an item.
(attribute . (identifier) @local.definition)
; Macro arguments are token trees: `v.len()` there is no expression, and `len` after a `.`
; is a method of an unknown value, never the item of that name.
(token_tree "." . (identifier) @local.definition)
