; C# tags for codenav. Capture names are the contract (grammars/README.md).
; Checked against tree-sitter-language-pack 0.13.0's `csharp` grammar.

; ---------------------------------------------------------------- definitions
; Namespaces are definitions: the types in them are named `A.B.Type`, which `Q:` keys
; (`using A.B;`) find across files. A file-scoped `namespace A.B;` spans the whole file.

(namespace_declaration name: (_) @name.definition.namespace) @definition.namespace
(compilation_unit
  (file_scoped_namespace_declaration name: (_) @name.definition.namespace)) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name.definition.namespace) @definition.namespace

; Types. Attributes and modifiers are inside the declaration node; `///` comments
; right above are the documentation.
(class_declaration name: (identifier) @name.definition.class) @definition.class
(interface_declaration name: (identifier) @name.definition.interface) @definition.interface
(struct_declaration name: (identifier) @name.definition.struct) @definition.struct
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(record_declaration name: (identifier) @name.definition.record) @definition.record
(delegate_declaration name: (identifier) @name.definition.type) @definition.type

; Methods; @definition.type is the return type: what calling the method makes.
(method_declaration
  returns: [(identifier) @definition.type (qualified_name) @definition.type (generic_name (identifier) @definition.type)]?
  name: (identifier) @name.definition.function) @definition.function
(local_function_statement name: (identifier) @name.definition.function) @definition.function

; Constructors are named like their class; `new Foo()` is a call of the class Foo.
(constructor_declaration name: (identifier) @name.definition.constructor) @definition.constructor

; Fields, constants, properties, events; with their declared type.
(field_declaration
  (variable_declaration
    type: [(identifier) @definition.type (qualified_name) @definition.type (generic_name (identifier) @definition.type)]?
    (variable_declarator name: (identifier) @name.definition.field))) @definition.field
((field_declaration
   (modifier) @_const
   (variable_declaration
     (variable_declarator name: (identifier) @name.definition.constant))) @definition.constant
  (#eq? @_const "const"))
(event_field_declaration
  (variable_declaration
    type: [(identifier) @definition.type (qualified_name) @definition.type (generic_name (identifier) @definition.type)]?
    (variable_declarator name: (identifier) @name.definition.field))) @definition.field
(event_declaration type: [(identifier) @definition.type (qualified_name) @definition.type (generic_name (identifier) @definition.type)]? name: (identifier) @name.definition.field) @definition.field
(property_declaration type: [(identifier) @definition.type (qualified_name) @definition.type (generic_name (identifier) @definition.type)]? name: (identifier) @name.definition.property) @definition.property
(enum_member_declaration name: (identifier) @name.definition.constant) @definition.constant

; Positional record parameters are properties.
(record_declaration
  (parameter_list
    (parameter type: [(identifier) @definition.type (qualified_name) @definition.type (generic_name (identifier) @definition.type)]? name: (identifier) @name.definition.property) @definition.property))

; ----------------------------------------------------------------- references
; Every identifier is a reference of kind `name` unless a pattern below says more. The
; receiver of a member is the field `receivers` names in language.toml (`a` in `a.B`,
; `a?.B`, `a.B<T>()`; `A.B` in the qualified name `A.B.C`).

(member_access_expression name: (identifier) @name.reference.attribute)
(member_access_expression name: (generic_name (identifier) @name.reference.attribute))
(member_binding_expression name: (identifier) @name.reference.attribute)
(qualified_name name: (identifier) @name.reference.attribute)

(invocation_expression function: (identifier) @name.reference.call)
(invocation_expression function: (generic_name (identifier) @name.reference.call))
(invocation_expression function: (member_access_expression name: (identifier) @name.reference.call))
(invocation_expression
  function: (member_access_expression name: (generic_name (identifier) @name.reference.call)))
(invocation_expression
  function: (conditional_access_expression
    (member_binding_expression name: (identifier) @name.reference.call)))

; Names in type positions mean types, never a field or property of the same name
; (`Customer Customer { get; }`).
(parameter type: (identifier) @name.reference.type)
(variable_declaration type: (identifier) @name.reference.type)
(property_declaration type: (identifier) @name.reference.type)
(event_declaration type: (identifier) @name.reference.type)
(method_declaration returns: (identifier) @name.reference.type)
(local_function_statement type: (identifier) @name.reference.type)
(delegate_declaration type: (identifier) @name.reference.type)
(type_argument_list (identifier) @name.reference.type)
(generic_name (identifier) @name.reference.type)
(nullable_type type: (identifier) @name.reference.type)
(array_type type: (identifier) @name.reference.type)
(foreach_statement type: (identifier) @name.reference.type)
(catch_declaration type: (identifier) @name.reference.type)
(declaration_pattern type: (identifier) @name.reference.type)
(declaration_expression type: (identifier) @name.reference.type)
(cast_expression type: (identifier) @name.reference.type)
(typeof_expression type: (identifier) @name.reference.type)
(type_parameter_constraint type: (identifier) @name.reference.type)

; `new Foo(…)`: a call of the class.
(object_creation_expression type: (identifier) @name.reference.call.type)
(object_creation_expression type: (generic_name (identifier) @name.reference.call.type))
(object_creation_expression type: (qualified_name name: (identifier) @name.reference.call.type))
(object_creation_expression
  type: (qualified_name name: (generic_name (identifier) @name.reference.call.type)))

; Base classes and interfaces.
(base_list (identifier) @name.reference.inheritance.type)
(base_list (generic_name (identifier) @name.reference.inheritance.type))
(base_list (qualified_name name: (identifier) @name.reference.inheritance.type))
(base_list (primary_constructor_base_type type: (identifier) @name.reference.inheritance.type))
(base_list (primary_constructor_base_type type: (generic_name (identifier) @name.reference.inheritance.type)))

; Attributes (`[Serializable]`, `[Obsolete("…")]`).
(attribute name: (identifier) @name.reference.decorator)
(attribute name: (qualified_name name: (identifier) @name.reference.decorator))

(using_directive (identifier) @name.reference.import)
(using_directive (qualified_name (identifier) @name.reference.import))
(using_directive (qualified_name (qualified_name (identifier) @name.reference.import)))
(using_directive (qualified_name (qualified_name (qualified_name (identifier) @name.reference.import))))

; -------------------------------------------------------------------- imports
; `using A.B;` (and `using static A.B.C;`) makes every member of A.B visible: a wildcard
; import of namespace A.B. `using M = A.B.C;` binds M. The types of the namespaces
; around a name are found by the "lexical" free-name step (language.toml); a top-level
; namespace declaration is also a wildcard import of itself, which keeps the parts of
; its name from being read as references.

(using_directive
  !name [(identifier) (qualified_name)] @import.module @import.wildcard) @import
(using_directive
  name: (identifier) @import.alias
  (qualified_name qualifier: (_) @import.module name: (identifier) @import.name)) @import
(using_directive name: (identifier) @import.alias (identifier) @import.module) @import

(compilation_unit (namespace_declaration name: (_) @import.module @import.wildcard) @import)
(file_scoped_namespace_declaration name: (_) @import.module @import.wildcard) @import

; --------------------------------------------------------------------- scopes
; A type body is a hidden scope: its members are reached through `this` (implicit
; members), so a constructor never shadows its class's name.

(class_declaration) @local.scope.hidden
(interface_declaration) @local.scope.hidden
(struct_declaration) @local.scope.hidden
(enum_declaration) @local.scope.hidden
(record_declaration) @local.scope.hidden
(method_declaration) @local.scope
(constructor_declaration) @local.scope
(local_function_statement) @local.scope
(property_declaration) @local.scope
(accessor_declaration) @local.scope
(lambda_expression) @local.scope
(anonymous_method_expression) @local.scope
(block) @local.scope
(for_statement) @local.scope
(foreach_statement) @local.scope
(catch_clause) @local.scope
(using_statement) @local.scope

; ---------------------------------------------------------------- local names
; Parameters, locals, loop, catch, pattern and `out var` variables, type parameters;
; @local.type is the declared type, or the class of `var x = new Foo()`.

(parameter
  type: [(identifier) @local.type (qualified_name) @local.type (generic_name (identifier) @local.type)]?
  name: (identifier) @local.definition)
(local_declaration_statement
  (variable_declaration
    type: [(identifier) @local.type (qualified_name) @local.type (generic_name (identifier) @local.type)]
    (variable_declarator name: (identifier) @local.definition)))
(local_declaration_statement
  (variable_declaration
    type: (implicit_type)
    (variable_declarator
      name: (identifier) @local.definition
      (object_creation_expression
        type: [(identifier) @local.type (qualified_name) @local.type (generic_name (identifier) @local.type)]))))
(variable_declaration (variable_declarator name: (identifier) @local.definition))
(foreach_statement
  type: [(identifier) @local.type (qualified_name) @local.type (generic_name (identifier) @local.type)]?
  left: (identifier) @local.definition)
(catch_declaration type: (_) @local.type name: (identifier) @local.definition)
(declaration_pattern type: (_) @local.type name: (identifier) @local.definition)
(declaration_expression type: (_) @local.type name: (identifier) @local.definition)
(lambda_expression parameters: (implicit_parameter) @local.definition)
(type_parameter name: (identifier) @local.definition)
