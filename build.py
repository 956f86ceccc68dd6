#!/usr/bin/env python3
"""Entry point: `python3 build.py [COMMAND]`; `python3 build.py --help` lists the commands."""

import sys

from catalogue.bootstrap import ensure_requirements

if __name__ == "__main__":
    ensure_requirements(sys.argv)  # without the libraries: installs them into .venv/ and runs this again there
    from catalogue.cli import main
    main()
