#!/usr/bin/env python3
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")
    from django.core.management import execute_from_command_line

    from messengers.startup import settings_or_exit

    settings_or_exit()
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
