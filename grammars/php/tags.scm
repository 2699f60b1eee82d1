; PHP tags for codenav. Capture names are the contract (grammars/README.md).
; Checked against tree-sitter-language-pack 0.13.0's `php` grammar. Every name is a
; `name` node, variables too (`$x` is `(variable_name (name))`): variables are local
; bindings below, never references to definitions.

; ---------------------------------------------------------------- definitions
; `/** … */` above a definition is its documentation (the language's comments).

; `namespace A\B;` is a node; the braced form `namespace A\B { … }` is not, so that its
; classes are top-level definitions of the file either way (members of the namespace's folder).
(namespace_definition name: (namespace_name) @name.definition.namespace !body) @definition.namespace

(class_declaration name: (name) @name.definition.class) @definition.class
(interface_declaration name: (name) @name.definition.interface) @definition.interface
(trait_declaration name: (name) @name.definition.trait) @definition.trait
(enum_declaration name: (name) @name.definition.enum) @definition.enum

; A function's @definition.type is its declared return type (its class).
(function_definition
  name: (name) @name.definition.function
  return_type: [(named_type (_) @definition.type) (optional_type (named_type (_) @definition.type))]?) @definition.function
(method_declaration
  name: (name) @name.definition.function
  return_type: [(named_type (_) @definition.type) (optional_type (named_type (_) @definition.type))]?) @definition.function

; Properties are fields; their declared type is their class.
(property_declaration
  type: [(named_type (_) @definition.type) (optional_type (named_type (_) @definition.type))]?
  (property_element name: (variable_name (name) @name.definition.field))) @definition.field
; Constructor promotion: `public function __construct(private Repo $repo)`.
; Its class is its @definition.owner: it is a field of the class, not of the method.
([(class_declaration name: (name) @definition.owner
    body: (declaration_list
      (method_declaration
        parameters: (formal_parameters
          (property_promotion_parameter
            type: [(named_type (_) @definition.type) (optional_type (named_type (_) @definition.type))]?
            name: (variable_name (name) @name.definition.field)) @definition.field))))
  (trait_declaration name: (name) @definition.owner
    body: (declaration_list
      (method_declaration
        parameters: (formal_parameters
          (property_promotion_parameter
            type: [(named_type (_) @definition.type) (optional_type (named_type (_) @definition.type))]?
            name: (variable_name (name) @name.definition.field)) @definition.field))))])

(const_declaration (const_element (name) @name.definition.constant)) @definition.constant
(enum_case name: (name) @name.definition.constant) @definition.constant

; ----------------------------------------------------------------- references

(function_call_expression function: (name) @name.reference.call)
(function_call_expression function: (qualified_name (name) @name.reference.call))
(member_call_expression name: (name) @name.reference.call)
(nullsafe_member_call_expression name: (name) @name.reference.call)
(scoped_call_expression name: (name) @name.reference.call)
(member_access_expression name: (name) @name.reference.attribute)
(nullsafe_member_access_expression name: (name) @name.reference.attribute)
(scoped_property_access_expression name: (variable_name (name) @name.reference.attribute))
(class_constant_access_expression (_) (name) @name.reference.attribute)
; `new Foo` calls the class (its `__construct`).
(object_creation_expression (name) @name.reference.call)
(object_creation_expression (qualified_name (name) @name.reference.call))

(base_clause (name) @name.reference.inheritance)
(base_clause (qualified_name (name) @name.reference.inheritance))
(class_interface_clause (name) @name.reference.inheritance)
(class_interface_clause (qualified_name (name) @name.reference.inheritance))
(use_declaration (name) @name.reference.inheritance)
(use_declaration (qualified_name (name) @name.reference.inheritance))

(namespace_use_clause (name) @name.reference.import)
(namespace_use_clause (qualified_name (name) @name.reference.import))
(namespace_use_clause alias: (name) @name.reference.import)

; -------------------------------------------------------------------- imports
; `use A\B\C;` binds C (a member of namespace A\B); `use A\B\{C, D as E};` too.

(namespace_use_declaration
  (namespace_use_clause
    (qualified_name prefix: (namespace_name) @import.module (name) @import.name) .)) @import
(namespace_use_declaration
  (namespace_use_clause
    (qualified_name prefix: (namespace_name) @import.module (name) @import.name)
    alias: (name) @import.alias)) @import
(namespace_use_declaration
  (namespace_name) @import.module
  body: (namespace_use_group
    (namespace_use_clause . (name) @import.name .))) @import
(namespace_use_declaration
  (namespace_name) @import.module
  body: (namespace_use_group
    (namespace_use_clause . (name) @import.name alias: (name) @import.alias))) @import

; `require 'x.php'` / `include __DIR__ . '/x.php'`: the file's definitions become visible.
(require_expression
  [(string (string_content) @import.module)
   (binary_expression right: (string (string_content) @import.module))] @import.wildcard) @import
(require_once_expression
  [(string (string_content) @import.module)
   (binary_expression right: (string (string_content) @import.module))] @import.wildcard) @import
(include_expression
  [(string (string_content) @import.module)
   (binary_expression right: (string (string_content) @import.module))] @import.wildcard) @import
(include_once_expression
  [(string (string_content) @import.module)
   (binary_expression right: (string (string_content) @import.module))] @import.wildcard) @import

; --------------------------------------------------------------------- scopes

; The names a namespace path is made of (`App`, `Models` in `namespace App\Models;` or in
; `\App\Models\User`) are bound in a scope of their own: they never mean a definition.
(namespace_definition name: (namespace_name) @local.scope)
(qualified_name prefix: (namespace_name) @local.scope)
(function_definition) @local.scope
(method_declaration) @local.scope
(anonymous_function) @local.scope
(arrow_function) @local.scope
(class_declaration) @local.scope.hidden
(interface_declaration) @local.scope.hidden
(trait_declaration) @local.scope.hidden
(enum_declaration) @local.scope.hidden

; ---------------------------------------------------------------- local names
; Every variable is a local binding of the innermost function (or of the file); typed
; parameters and `$x = new Foo` know their class.

(variable_name (name) @local.definition)
(namespace_definition name: (namespace_name (name) @local.definition))
(qualified_name prefix: (namespace_name (name) @local.definition))
(simple_parameter
  type: [(named_type (_) @local.type) (optional_type (named_type (_) @local.type))]
  name: (variable_name (name) @local.definition))
(assignment_expression
  left: (variable_name (name) @local.definition)
  right: (object_creation_expression [(name) (qualified_name)] @local.type))
