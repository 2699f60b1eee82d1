; JSX elements (TSX and JavaScript include this file): a component used as an element is
; a reference to it, much like a call (lower-case names are HTML elements).

((jsx_opening_element name: (identifier) @name.reference.call) (#match? @name.reference.call "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name.reference.call) (#match? @name.reference.call "^[A-Z]"))
(jsx_opening_element name: (member_expression property: (property_identifier) @name.reference.call))
(jsx_self_closing_element name: (member_expression property: (property_identifier) @name.reference.call))
