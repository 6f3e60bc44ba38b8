# placeholder until the harness lands
