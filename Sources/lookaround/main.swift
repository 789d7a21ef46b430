print("lookaround")
