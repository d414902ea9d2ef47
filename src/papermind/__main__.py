from papermind.cli.app import main

main()
