from pipeline.cli import main

main(prog_name="errdoc")
