// Ground truth for bench_accuracy's Java corpora: javac's own attribution of every name.
//
//   javac -d OUT --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
//       JavacReferences.java
//   java -cp OUT --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
//       JavacReferences ROOT FILE.java...
//
// Compiles the files together (errors from missing libraries are ignored: what resolves is
// attributed) and prints one tab-separated line per use of a declaration of those files:
//   use-path  use-line  use-col  decl-path  decl-line  decl-col  decl-kind
// Paths are relative to ROOT; lines and columns 1-based (columns in UTF-16 units, as
// codenav's). A use is the name as written (an identifier, the last name of `a.b`, the
// name of `A::m`); its declaration the name in the declaring class, method, field, enum
// constant, parameter-less local excluded. `new Foo(…)` is a use of class Foo at `Foo` and
// of the constructor called, at the same place.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;
import javax.lang.model.element.*;
import javax.tools.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;

public class JavacReferences {
    public static void main(String[] args) throws IOException {
        Path root = Paths.get(args[0]).toAbsolutePath().normalize();
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null);
        List<File> sources = new ArrayList<>();
        for (int i = 1; i < args.length; i++) sources.add(new File(args[i]));
        DiagnosticCollector<JavaFileObject> ignored = new DiagnosticCollector<>();
        JavacTask task = (JavacTask) compiler.getTask(null, files, ignored,
            List.of("-proc:none", "-Xlint:none"), null, files.getJavaFileObjectsFromFiles(sources));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        Trees trees = Trees.instance(task);
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
        for (CompilationUnitTree unit : units) {
            new Scanner(trees, unit, root, out).scan(unit, null);
        }
        out.flush();
    }

    static final class Scanner extends TreePathScanner<Void, Void> {
        final Trees trees;
        final CompilationUnitTree unit;
        final Path root;
        final PrintStream out;
        final String text;

        Scanner(Trees trees, CompilationUnitTree unit, Path root, PrintStream out) throws IOException {
            this.trees = trees;
            this.unit = unit;
            this.root = root;
            this.out = out;
            this.text = unit.getSourceFile().getCharContent(true).toString();
        }

        @Override
        public Void visitIdentifier(IdentifierTree node, Void p) {
            String name = node.getName().toString();
            if (!name.equals("this") && !name.equals("super")) {
                long start = trees.getSourcePositions().getStartPosition(unit, node);
                report(start, element(getCurrentPath()));
            }
            return super.visitIdentifier(node, p);
        }

        @Override
        public Void visitMemberSelect(MemberSelectTree node, Void p) {
            long end = trees.getSourcePositions().getEndPosition(unit, node);
            String name = node.getIdentifier().toString();
            if (end > 0 && !name.equals("class") && !name.equals("this")) {
                report(end - name.length(), element(getCurrentPath()));
            }
            return super.visitMemberSelect(node, p);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree node, Void p) {
            long end = trees.getSourcePositions().getEndPosition(unit, node);
            String name = node.getName().toString();
            if (end > 0 && !name.equals("new")) report(end - name.length(), element(getCurrentPath()));
            return super.visitMemberReference(node, p);
        }

        @Override
        public Void visitImport(ImportTree node, Void p) {
            // `import static a.b.C.m;` names every member m of C (javac attributes no single
            // one): a use of each, as a language server counts it
            Tree imported = node.getQualifiedIdentifier();
            if (node.isStatic() && imported instanceof MemberSelectTree) {
                MemberSelectTree select = (MemberSelectTree) imported;
                String name = select.getIdentifier().toString();
                long end = trees.getSourcePositions().getEndPosition(unit, select);
                Element owner = element(new TreePath(new TreePath(getCurrentPath(), imported),
                                                     select.getExpression()));
                if (owner != null && !name.equals("*") && end > 0) {
                    for (Element member : owner.getEnclosedElements()) {
                        if (member.getSimpleName().contentEquals(name)) report(end - name.length(), member);
                    }
                }
                scan(select.getExpression(), p);
                return null;
            }
            return super.visitImport(node, p);
        }

        @Override
        public Void visitNewClass(NewClassTree node, Void p) {
            Tree type = node.getIdentifier();
            if (type instanceof ParameterizedTypeTree) type = ((ParameterizedTypeTree) type).getType();
            long start = type instanceof MemberSelectTree
                ? trees.getSourcePositions().getEndPosition(unit, type)
                  - ((MemberSelectTree) type).getIdentifier().length()
                : trees.getSourcePositions().getStartPosition(unit, type);
            report(start, element(getCurrentPath()));  // the constructor
            return super.visitNewClass(node, p);
        }

        Element element(TreePath path) {
            try {
                return trees.getElement(path);
            } catch (RuntimeException e) {
                return null;
            }
        }

        void report(long use, Element target) {
            if (use < 0 || target == null) return;
            String written = target.getKind() == ElementKind.CONSTRUCTOR
                ? target.getEnclosingElement().getSimpleName().toString()
                : target.getSimpleName().toString();
            // a name javac made up (an enum constant's implicit `new Kind(…)`) is not written
            if (!text.startsWith(written, (int) use)) return;
            ElementKind kind = target.getKind();
            if (kind == ElementKind.LOCAL_VARIABLE || kind == ElementKind.PARAMETER
                    || kind == ElementKind.EXCEPTION_PARAMETER || kind == ElementKind.TYPE_PARAMETER
                    || kind == ElementKind.RESOURCE_VARIABLE || kind == ElementKind.PACKAGE) return;
            TreePath declared = trees.getPath(target);
            if (declared == null) return;  // not declared in these files
            Tree tree = declared.getLeaf();
            if (!(tree instanceof JCTree)) return;
            CompilationUnitTree where = declared.getCompilationUnit();
            String declText;
            try {
                declText = where.getSourceFile().getCharContent(true).toString();
            } catch (IOException e) {
                return;
            }
            long at = namePosition((JCTree) tree, declText, target);
            if (at < 0) return;
            out.println(relative(unit) + "\t" + lineCol(text, use) + "\t" + relative(where) + "\t"
                + lineCol(declText, at) + "\t" + kind);
        }

        static long namePosition(JCTree tree, String text, Element target) {
            // javac's pos of a declaration is at or before its name (a class's is its
            // `class` keyword): the first whole word that is the name, from there
            String name = target.getKind() == ElementKind.CONSTRUCTOR
                ? target.getEnclosingElement().getSimpleName().toString()
                : target.getSimpleName().toString();
            int at = tree.pos;
            while (at >= 0 && at < text.length()) {
                at = text.indexOf(name, at);
                if (at < 0) return -1;
                boolean before = at == 0 || !Character.isJavaIdentifierPart(text.charAt(at - 1));
                int end = at + name.length();
                boolean after = end >= text.length() || !Character.isJavaIdentifierPart(text.charAt(end));
                if (before && after) return at;
                at = end;
            }
            return -1;
        }

        String relative(CompilationUnitTree cu) {
            return root.relativize(Paths.get(cu.getSourceFile().toUri()).toAbsolutePath().normalize())
                .toString().replace(File.separatorChar, '/');
        }

        static String lineCol(String text, long offset) {
            int line = 1, col = 1;
            for (int i = 0; i < offset && i < text.length(); i++) {
                if (text.charAt(i) == '\n') { line++; col = 1; } else { col++; }
            }
            return line + "\t" + col;
        }
    }
}
