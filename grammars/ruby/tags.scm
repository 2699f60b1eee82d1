; Ruby tags for codenav. Capture names are the contract (grammars/README.md).
; Checked against tree-sitter-language-pack 0.13.0's `ruby` grammar.

; ---------------------------------------------------------------- definitions
; Modules are namespaces (and mixins); a class or module named `A::B` outside `A` is
; `A.B` (@definition.owner).

(class name: (constant) @name.definition.class) @definition.class
(class
  name: (scope_resolution scope: (_) @definition.owner name: (constant) @name.definition.class))
  @definition.class
(module name: (constant) @name.definition.namespace) @definition.namespace
(module
  name: (scope_resolution scope: (_) @definition.owner name: (constant) @name.definition.namespace))
  @definition.namespace

; A comment above the first statement of a body is a child of the class, not a sibling.
(_ (comment) @doc . (body_statement . (class name: (constant) @name.definition.class) @definition.class))
(_ (comment) @doc . (body_statement . (module name: (constant) @name.definition.namespace) @definition.namespace))
(_ (comment) @doc . (body_statement . (method name: (_) @name.definition.function) @definition.function))
(_ (comment) @doc . (body_statement . (singleton_method name: (_) @name.definition.function) @definition.function))

; `def x` in a class or module is a method (its container); `def self.x` too.
(method name: (_) @name.definition.function) @definition.function
(singleton_method name: (_) @name.definition.function) @definition.function

; `attr_reader :name` (accessor, writer): fields, named without the colon (`sigil`).
((call
   method: (identifier) @_attr
   arguments: (argument_list (simple_symbol) @name.definition.field)) @definition.field
  (#match? @_attr "^attr_(reader|writer|accessor)$"))

; Constants: `MAX = 10`; the class assigned, when it is `Foo.new`, is their type.
(assignment left: (constant) @name.definition.constant) @definition.constant
(assignment
  left: (constant) @name.definition.constant
  right: (call receiver: [(constant) (scope_resolution)] @definition.type
               method: (identifier) @_new)
  (#eq? @_new "new")) @definition.constant

; Variables of the file's top level (elsewhere they are local bindings).
(program (assignment left: (identifier) @name.definition.variable) @definition.variable)
(program
  (assignment
    left: (identifier) @name.definition.variable
    right: (call receiver: [(constant) (scope_resolution)] @definition.type
                 method: (identifier) @_new)
    (#eq? @_new "new")) @definition.variable)

; ----------------------------------------------------------------- references
; Every identifier and constant is a reference of kind `name` unless given a kind here.

(call method: (identifier) @name.reference.call)
(call method: (constant) @name.reference.call)
; `Foo.new` calls the class (its `initialize`): the class is called.
((call receiver: (constant) @name.reference.call method: (identifier) @_new)
  (#eq? @_new "new"))
((call receiver: (scope_resolution name: (constant) @name.reference.call) method: (identifier) @_new)
  (#eq? @_new "new"))
(scope_resolution name: (constant) @name.reference.attribute)

(superclass (constant) @name.reference.inheritance)
(superclass (scope_resolution name: (constant) @name.reference.inheritance))
; Mixins: `include M`, `extend M`, `prepend M`.
((call
   method: (identifier) @_mixin
   arguments: (argument_list (constant) @name.reference.inheritance))
  (#match? @_mixin "^(include|extend|prepend)$"))
((call
   method: (identifier) @_mixin
   arguments: (argument_list (scope_resolution name: (constant) @name.reference.inheritance)))
  (#match? @_mixin "^(include|extend|prepend)$"))

; -------------------------------------------------------------------- imports
; `require_relative "x"` and `require "a/b"` load a file: all its constants become visible.
((call
   method: (identifier) @_require
   arguments: (argument_list . (string (string_content) @import.module) @import.wildcard))
  (#match? @_require "^(require|require_relative|load)$")) @import

; --------------------------------------------------------------------- scopes
; A method body sees no local of the code around it; blocks see their surroundings.

(method) @local.scope
(singleton_method) @local.scope
(class) @local.scope.hidden
(module) @local.scope.hidden
(singleton_class) @local.scope.hidden
(block) @local.scope
(do_block) @local.scope
(lambda) @local.scope

; ---------------------------------------------------------------- local names

(method_parameters (identifier) @local.definition)
(method_parameters (optional_parameter name: (identifier) @local.definition))
(method_parameters (splat_parameter name: (identifier) @local.definition))
(method_parameters (hash_splat_parameter name: (identifier) @local.definition))
(method_parameters (block_parameter name: (identifier) @local.definition))
(method_parameters (keyword_parameter name: (identifier) @local.definition))
(lambda_parameters (identifier) @local.definition)
(block_parameters (identifier) @local.definition)
(block_parameters (optional_parameter name: (identifier) @local.definition))
(block_parameters (splat_parameter name: (identifier) @local.definition))
(block_parameters (keyword_parameter name: (identifier) @local.definition))
(block_parameters (destructured_parameter (identifier) @local.definition))
(for pattern: (identifier) @local.definition)
(exception_variable (identifier) @local.definition)
(left_assignment_list (identifier) @local.definition)
(operator_assignment left: (identifier) @local.definition)
(assignment left: (identifier) @local.definition)
(assignment left: (identifier) @local.definition
  right: (call receiver: [(constant) (scope_resolution)] @local.type method: (identifier) @_new)
  (#eq? @_new "new"))
