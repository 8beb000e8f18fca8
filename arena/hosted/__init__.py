"""Program bots: run a program in a sandbox and play it over stdin and stdout."""
