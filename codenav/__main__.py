from codenav.cli import main

raise SystemExit(main())
