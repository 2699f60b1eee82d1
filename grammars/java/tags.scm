; Java tags for codenav. Capture names are the contract (grammars/README.md).
; Checked against tree-sitter-language-pack 0.13.0's `java` grammar.
; Names: `identifier` (values, members) and `type_identifier` (types) are both references.

; ---------------------------------------------------------------- definitions
; Types. Modifiers and annotations are inside the declaration node, so its span
; starts at them; a Javadoc comment right above is the documentation.

(class_declaration name: (identifier) @name.definition.class) @definition.class
(interface_declaration name: (identifier) @name.definition.interface) @definition.interface
(annotation_type_declaration name: (identifier) @name.definition.interface) @definition.interface
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(record_declaration name: (identifier) @name.definition.record) @definition.record

; Methods. @definition.type is the return type: what calling the method makes.
(method_declaration
  type: [(type_identifier) @definition.type (scoped_type_identifier) @definition.type
         (generic_type [(type_identifier) (scoped_type_identifier)] @definition.type)]?
  name: (identifier) @name.definition.function) @definition.function
(annotation_type_element_declaration name: (identifier) @name.definition.method) @definition.method

; Constructors are named like their class; `new Foo()` is a call of the class Foo.
(constructor_declaration name: (identifier) @name.definition.constructor) @definition.constructor
(compact_constructor_declaration name: (identifier) @name.definition.constructor) @definition.constructor

; Fields, with their declared type; `static final` ones and interface fields are constants.
(field_declaration
  type: (_)
  declarator: (variable_declarator name: (identifier) @name.definition.field)) @definition.field
(field_declaration
  type: [(type_identifier) @definition.type (scoped_type_identifier) @definition.type
         (generic_type [(type_identifier) (scoped_type_identifier)] @definition.type)]
  declarator: (variable_declarator name: (identifier) @name.definition.field)) @definition.field
((field_declaration
   (modifiers) @_mods
   declarator: (variable_declarator name: (identifier) @name.definition.constant)) @definition.constant
  (#match? @_mods "static")
  (#match? @_mods "final"))
(constant_declaration
  type: [(type_identifier) @definition.type (scoped_type_identifier) @definition.type
         (generic_type [(type_identifier) (scoped_type_identifier)] @definition.type)]?
  declarator: (variable_declarator name: (identifier) @name.definition.constant)) @definition.constant
(enum_constant name: (identifier) @name.definition.constant) @definition.constant

; Record components are fields (with accessors of the same name).
(record_declaration
  parameters: (formal_parameters
    (formal_parameter
      type: [(type_identifier) @definition.type (scoped_type_identifier) @definition.type
             (generic_type [(type_identifier) (scoped_type_identifier)] @definition.type)]?
      name: (identifier) @name.definition.field) @definition.field))

; ----------------------------------------------------------------- references
; Every identifier is a reference of kind `name` unless a pattern below says more.
; The receiver of a member (`this` in `this.total()`) is the field `receivers` names
; in language.toml; `-` there means the named node before the member (`Outer` in
; `Outer.Inner`, `Foo` in `Foo::bar`).

; Every type_identifier names a type (never a field or method of the same name).
(type_identifier) @name.reference.type

(method_invocation name: (identifier) @name.reference.call)
(field_access field: (identifier) @name.reference.attribute)
(method_reference (_) (identifier) @name.reference.call .)
(scoped_type_identifier (type_identifier) @name.reference.attribute .)

; `new Foo(…)`: a call of the class.
(object_creation_expression type: (type_identifier) @name.reference.call.type)
(object_creation_expression type: (generic_type (type_identifier) @name.reference.call.type))
(object_creation_expression
  type: (scoped_type_identifier (type_identifier) @name.reference.call.type .))
(object_creation_expression
  type: (generic_type (scoped_type_identifier (type_identifier) @name.reference.call.type .)))

; extends / implements.
(superclass (type_identifier) @name.reference.inheritance.type)
(superclass (generic_type (type_identifier) @name.reference.inheritance.type))
(superclass (scoped_type_identifier (type_identifier) @name.reference.inheritance.type .))
(super_interfaces (type_list (type_identifier) @name.reference.inheritance.type))
(super_interfaces (type_list (generic_type (type_identifier) @name.reference.inheritance.type)))
(super_interfaces (type_list (scoped_type_identifier (type_identifier) @name.reference.inheritance.type .)))
(extends_interfaces (type_list (type_identifier) @name.reference.inheritance.type))
(extends_interfaces (type_list (generic_type (type_identifier) @name.reference.inheritance.type)))
(extends_interfaces (type_list (scoped_type_identifier (type_identifier) @name.reference.inheritance.type .)))

; Annotations.
(annotation name: (identifier) @name.reference.decorator)
(marker_annotation name: (identifier) @name.reference.decorator)
(annotation name: (scoped_identifier name: (identifier) @name.reference.decorator))
(marker_annotation name: (scoped_identifier name: (identifier) @name.reference.decorator))

(import_declaration (scoped_identifier (identifier) @name.reference.import))
(import_declaration (scoped_identifier (scoped_identifier (identifier) @name.reference.import)))
(import_declaration (scoped_identifier (scoped_identifier (scoped_identifier (identifier) @name.reference.import))))
(import_declaration (scoped_identifier (scoped_identifier (scoped_identifier (scoped_identifier (identifier) @name.reference.import)))))
(import_declaration (scoped_identifier (scoped_identifier (scoped_identifier (scoped_identifier (scoped_identifier (identifier) @name.reference.import))))))
(import_declaration (scoped_identifier (scoped_identifier (scoped_identifier (scoped_identifier (scoped_identifier (scoped_identifier (identifier) @name.reference.import)))))))
(import_declaration (identifier) @name.reference.import)

; A bare name in a `case` of a switch on an enum is a constant of the switched value's type:
; a member of it, not a name of the scope (`switch (kind) { case CHAR: … }`)
(switch_expression
  condition: (parenthesized_expression (_) @reference.receiver)
  body: (switch_block (switch_block_statement_group
    (switch_label . (identifier) @name.reference.attribute .))))
(switch_expression
  condition: (parenthesized_expression (_) @reference.receiver)
  body: (switch_block (switch_rule (switch_label . (identifier) @name.reference.attribute .))))

; -------------------------------------------------------------------- imports
; `import a.b.C;` binds C: module `a.b`, name `C` (the module system knows that a
; capitalised part is a class: `import a.b.Outer.Inner;`, `import static a.b.C.m;`).
; `import a.b.*;` makes every type of package a.b visible. A static on-demand import
; (`import static a.b.C.*;`) binds nothing the map can follow.

(import_declaration
  (scoped_identifier scope: (_) @import.module name: (identifier) @import.name) .) @import
(import_declaration
  "static"?  @_static
  (scoped_identifier) @import.module
  (asterisk) @import.wildcard
  (#not-eq? @_static "static")) @import

; --------------------------------------------------------------------- scopes
; A class body is a hidden scope: its members are reached through `this` (implicit
; members), so a constructor never shadows its class's name.

(class_declaration) @local.scope.hidden
(interface_declaration) @local.scope.hidden
(annotation_type_declaration) @local.scope.hidden
(enum_declaration) @local.scope.hidden
(record_declaration) @local.scope.hidden
(method_declaration) @local.scope
(constructor_declaration) @local.scope
(compact_constructor_declaration) @local.scope
(lambda_expression) @local.scope
(block) @local.scope
(for_statement) @local.scope
(enhanced_for_statement) @local.scope
(catch_clause) @local.scope
(try_with_resources_statement) @local.scope
(switch_block_statement_group) @local.scope

; ---------------------------------------------------------------- local names
; Parameters, local variables, loop and catch variables, pattern variables and type
; parameters; @local.type is the declared type, or the class of `var x = new Foo()`.

(formal_parameter
  type: [(type_identifier) @local.type (scoped_type_identifier) @local.type
         (generic_type [(type_identifier) (scoped_type_identifier)] @local.type)]?
  name: (identifier) @local.definition)
(spread_parameter (variable_declarator name: (identifier) @local.definition))
((local_variable_declaration
   type: [(type_identifier) @local.type (scoped_type_identifier) @local.type
         (generic_type [(type_identifier) (scoped_type_identifier)] @local.type)]
   declarator: (variable_declarator name: (identifier) @local.definition))
  (#not-eq? @local.type "var"))
(local_variable_declaration
  type: (_)
  declarator: (variable_declarator
    name: (identifier) @local.definition
    value: (object_creation_expression
      type: [(type_identifier) @local.type (scoped_type_identifier) @local.type
         (generic_type [(type_identifier) (scoped_type_identifier)] @local.type)])))
(local_variable_declaration
  declarator: (variable_declarator name: (identifier) @local.definition))
(enhanced_for_statement
  type: [(type_identifier) @local.type (scoped_type_identifier) @local.type
         (generic_type [(type_identifier) (scoped_type_identifier)] @local.type)]?
  name: (identifier) @local.definition)
(resource type: (_)? @local.type name: (identifier) @local.definition)
(catch_formal_parameter name: (identifier) @local.definition)
(instanceof_expression right: (_) @local.type name: (identifier) @local.definition)
(lambda_expression parameters: (identifier) @local.definition)
(inferred_parameters (identifier) @local.definition)
(type_parameter . (type_identifier) @local.definition)
