import sys

try:
    from transted.cli import main
except KeyboardInterrupt:  # Ctrl-C while the CLI itself loads: nothing ran, nothing to keep
    sys.stderr.write("interrupted\n")
    sys.exit(130)

sys.exit(main())
