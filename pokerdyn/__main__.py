import sys

from pokerdyn.cli import main

sys.exit(main())
