"""The guides' shell examples as commands: each ```sh block of a page of docs/, in order
(tests/test_deploy_guide.py follows docs/deploy.md's; tests/test_guide_examples.py runs
every other guide's docgen commands)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass
class Block:
    commands: list[str]
    only: str | None  # "sqlite" / "postgresql": a block for that register only


def guide_blocks(text: str) -> list[Block]:
    """The guide's ```sh blocks in order, as commands (a line continued with a backslash
    is one command; a here-document is part of its command)."""
    blocks = []
    for match in re.finditer(r"(?:<!-- guide: (\w+) -->\s*\n)?([ \t]*)```sh\n(.*?)```", text, re.S):
        only, indent, body = match.groups()
        lines = [line.removeprefix(indent) for line in body.splitlines()]
        commands, pending, heredoc = [], "", None
        for line in lines:
            if heredoc is not None:
                pending += "\n" + line
                if line.strip() == heredoc:
                    commands.append(pending)
                    pending, heredoc = "", None
                continue
            pending = f"{pending} {line.rstrip(chr(92))}" if pending else line.rstrip("\\")
            if line.endswith("\\"):
                continue
            found = re.search(r"<<'?(\w+)'?", pending)
            if found:
                heredoc = found.group(1)
                continue
            if pending.strip() and not pending.strip().startswith("#"):
                commands.append(pending.strip())
            pending = ""
        blocks.append(Block(commands, only))
    return blocks
