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

; A function's @definition.type is its return annotation: what calling it makes.
(function_definition
  name: (identifier) @name.definition.function
  return_type: (type)? @definition.type
  body: (block . (string)? @doc)) @definition.function

(decorated_definition
  definition: (function_definition
    name: (identifier) @name.definition.function
    return_type: (type)? @definition.type
    body: (block . (string)? @doc))) @definition.function

; A function without a return annotation: what it returns at the end of its body (`self`,
; `cls()`, `self._query`, a local) is what calling it makes (@definition.value).
(function_definition
  name: (identifier) @name.definition.function
  body: (block (return_statement [(identifier) (attribute) (call)] @definition.value) .))
  @definition.function

(decorated_definition
  (decorator [(identifier) @_dec (attribute attribute: (identifier) @_dec)])
  definition: (function_definition
    name: (identifier) @name.definition.property
    return_type: (type)? @definition.type
    body: (block . (string)? @doc))
  (#match? @_dec "^(property|cached_property|setter|getter|deleter)$")) @definition.property

; Assignments: kept as nodes at module and class level; inside a function they
; are local bindings and stay references (codenav/index/extract.py).
; @definition.type: the annotation, else the constructor called (the variable's class);
; @definition.value: a name assigned, whose own type the variable then has.
(assignment
  left: (identifier) @name.definition.variable
  type: (type)? @definition.type
  right: [(call function: [(identifier) (attribute)] @definition.type)
          (parenthesized_expression (call function: [(identifier) (attribute)] @definition.type))
          (identifier) @definition.value]?) @definition.variable
(assignment left: (pattern_list (identifier) @name.definition.variable)) @definition.variable
(assignment left: (tuple_pattern (identifier) @name.definition.variable)) @definition.variable

((assignment
   left: (identifier) @name.definition.constant
   type: (type)? @definition.type
   right: (call function: [(identifier) (attribute)] @definition.type)?) @definition.constant
  (#match? @name.definition.constant "^_*[A-Z][A-Z0-9_]*$"))
((assignment left: (pattern_list (identifier) @name.definition.constant)) @definition.constant
  (#match? @name.definition.constant "^_*[A-Z][A-Z0-9_]*$"))

(type_alias_statement left: (type (identifier) @name.definition.type)) @definition.type

; Instance attributes: `self.x = …` in a method is a field of the class when the object
; is the method's receiver (its first parameter). Named like the receiver in @definition.receiver.
(assignment
  left: (attribute
    object: (identifier) @definition.receiver
    attribute: (identifier) @name.definition.attribute)
  type: (type)? @definition.type
  right: [(call function: [(identifier) (attribute)] @definition.type)
          (parenthesized_expression (call function: [(identifier) (attribute)] @definition.type))
          (identifier) @definition.value]?) @definition.attribute
(augmented_assignment
  left: (attribute
    object: (identifier) @definition.receiver
    attribute: (identifier) @name.definition.attribute)) @definition.attribute
; … whose value is a name or a constructor called: `query or sql.Query(model)` (the name's
; declared type if it has one, else the class called), `Conn() if flag else None` (two
; constructors: no one type)
(assignment
  left: (attribute
    object: (identifier) @definition.receiver
    attribute: (identifier) @name.definition.attribute)
  right: [(boolean_operator left: (identifier) @definition.value
             right: (call function: [(identifier) (attribute)] @definition.type))
          (boolean_operator left: [(attribute) (subscript)]
             right: (call function: [(identifier) (attribute)] @definition.type))
          (conditional_expression . (call function: [(identifier) (attribute)] @definition.type)
             (_) . [(none) (identifier) (attribute) (subscript)])
          (conditional_expression . [(none) (identifier) (attribute) (subscript)]
             (_) . (call function: [(identifier) (attribute)] @definition.type))]
  ) @definition.attribute
(assignment
  left: (identifier) @name.definition.variable
  right: [(boolean_operator left: (identifier) @definition.value
             right: (call function: [(identifier) (attribute)] @definition.type))
          (boolean_operator left: [(attribute) (subscript)]
             right: (call function: [(identifier) (attribute)] @definition.type))
          (conditional_expression . (call function: [(identifier) (attribute)] @definition.type)
             (_) . [(none) (identifier) (attribute) (subscript)])
          (conditional_expression . [(none) (identifier) (attribute) (subscript)]
             (_) . (call function: [(identifier) (attribute)] @definition.type))]
  ) @definition.variable

; Module docstring.
(module . (string) @doc.module)

; ----------------------------------------------------------------- references
; Every node of the language's `identifiers` types (languages.toml) is a reference of
; kind `name` unless a pattern below gives it a more specific kind
; (import > export > decorator > inheritance > call > attribute > name). The receiver of
; an attribute (`self` in `self.save`) is found through the tree (`receivers` in
; languages.toml), so these patterns capture one node each.

; The name of a keyword argument (`f(msg=1)`) names a parameter of what is called, not a
; definition of the map: no reference (`keyword` references are left out).
(keyword_argument name: (identifier) @name.reference.keyword)

(attribute attribute: (identifier) @name.reference.attribute)

(call function: (identifier) @name.reference.call)
(call function: (attribute attribute: (identifier) @name.reference.call))

(class_definition superclasses: (argument_list (identifier) @name.reference.inheritance))
(class_definition
  superclasses: (argument_list (attribute attribute: (identifier) @name.reference.inheritance)))
; a generic base: `MultiDict[K, V]`, `typing.MutableMapping[str, str]`
(class_definition
  superclasses: (argument_list (subscript value: (identifier) @name.reference.inheritance)))
(class_definition
  superclasses: (argument_list
    (subscript value: (attribute attribute: (identifier) @name.reference.inheritance))))

; a forward reference: a class named in a string annotation (`Optional['Retry']`, `-> 'Job'`),
; a use of it (rq, run 36: 10 such lines were "in strings" beside docstrings)
((type (string (string_content) @name.reference.name))
  (#match? @name.reference.name "^[A-Za-z_][A-Za-z_0-9]*$"))
(decorator (identifier) @name.reference.decorator)
(decorator (call function: (identifier) @name.reference.decorator))
(decorator (attribute attribute: (identifier) @name.reference.decorator))
(decorator (call function: (attribute attribute: (identifier) @name.reference.decorator)))

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

; --------------------------------------------------------------------- scopes
; Names bound in a @local.scope are visible in it and in the scopes nested in it;
; names bound in a @local.scope.hidden (a class body) only in that scope itself.

(function_definition) @local.scope
(lambda) @local.scope
(list_comprehension) @local.scope
(set_comprehension) @local.scope
(dictionary_comprehension) @local.scope
(generator_expression) @local.scope
(class_definition) @local.scope.hidden

; ---------------------------------------------------------------- local names
; @local.definition binds a name in the innermost scope around it; an optional
; @local.type in the same match is its annotation or the constructor called.
; Assignments are @definition.variable patterns above: inside a function they
; bind locals too. @local.global / @local.nonlocal redirect a name outward.

(parameters (identifier) @local.definition)
(parameters (default_parameter name: (identifier) @local.definition))
(parameters (typed_parameter (identifier) @local.definition type: (type) @local.type))
(parameters (typed_default_parameter name: (identifier) @local.definition type: (type) @local.type))
(parameters (list_splat_pattern (identifier) @local.definition))
(parameters (dictionary_splat_pattern (identifier) @local.definition))
(parameters (typed_parameter (list_splat_pattern (identifier) @local.definition)))
(parameters (typed_parameter (dictionary_splat_pattern (identifier) @local.definition)))
(lambda_parameters (identifier) @local.definition)
(lambda_parameters (default_parameter name: (identifier) @local.definition))
(lambda_parameters (list_splat_pattern (identifier) @local.definition))
(lambda_parameters (dictionary_splat_pattern (identifier) @local.definition))

(for_statement left: (identifier) @local.definition)
(for_statement left: (pattern_list (identifier) @local.definition))
(for_statement left: (tuple_pattern (identifier) @local.definition))
(for_in_clause left: (identifier) @local.definition)
(for_in_clause left: (pattern_list (identifier) @local.definition))
(for_in_clause left: (tuple_pattern (identifier) @local.definition))
(as_pattern_target (identifier) @local.definition)
(named_expression name: (identifier) @local.definition)
(augmented_assignment left: (identifier) @local.definition)
(assignment left: (identifier) @local.definition
  right: (call function: [(identifier) (attribute)] @local.type))
; … in parentheses: a chain over several lines (`q = (Query.from_(t)` / `.select(x))`)
(assignment left: (identifier) @local.definition
  right: (parenthesized_expression (call function: [(identifier) (attribute)] @local.type)))
(assignment left: (identifier) @local.definition
  right: [(boolean_operator left: [(identifier) (attribute) (subscript)]
             right: (call function: [(identifier) (attribute)] @local.type))
          (conditional_expression . (call function: [(identifier) (attribute)] @local.type)
             (_) . [(none) (identifier) (attribute) (subscript)])
          (conditional_expression . [(none) (identifier) (attribute) (subscript)]
             (_) . (call function: [(identifier) (attribute)] @local.type))])
; `rect = self._paint_rect`, `r = a.b`: a local holding an attribute has its type
(assignment left: (identifier) @local.definition right: (attribute) @local.type)
(with_item value: (as_pattern (call function: [(identifier) (attribute)] @local.type)
                              alias: (as_pattern_target (identifier) @local.definition)))
(for_statement left: (identifier) @local.definition
  right: [(list . (call function: [(identifier) (attribute)] @local.type))
          (tuple . (call function: [(identifier) (attribute)] @local.type))])
(for_in_clause left: (identifier) @local.definition
  right: [(list . (call function: [(identifier) (attribute)] @local.type))
          (tuple . (call function: [(identifier) (attribute)] @local.type))])
(assignment left: (identifier) @local.definition type: (type) @local.type)

(global_statement (identifier) @local.global)
(nonlocal_statement (identifier) @local.nonlocal)

; A property made by a call in a class body (`edit_pos = property(get_edit_pos, set_edit_pos)`:
; urwid's Edit, run 45): a property, like a decorated one (last: it outranks the assignment
; patterns above)
(class_definition
  body: (block
    (assignment
      left: (identifier) @name.definition.property
      right: (call function: (identifier) @_property)) @definition.property)
  (#eq? @_property "property"))
