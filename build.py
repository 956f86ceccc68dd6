#!/usr/bin/env python3
"""Entry point: `python build.py [COMMAND]`; `python build.py --help` lists the commands."""

from catalogue.cli import main

if __name__ == "__main__":
    main()
