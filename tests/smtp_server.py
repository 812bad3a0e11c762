"""A real SMTP server for the tests of the results mails (aiosmtpd), on a free local port.

It keeps every message it accepts, parsed, and answers as a test tells it: ``data_reply``
("451 4.3.0 Try again later") refuses every message for now; ``refuse`` maps an
address to its RCPT reply ("550 5.1.1 No such user").
"""

from __future__ import annotations

import socket
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Recorder:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.data_reply = ""
        self.refuse: dict[str, str] = {}

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options) -> str:  # noqa: N802 (aiosmtpd's name)
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802
        if self.data_reply:
            return self.data_reply
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))  # type: ignore[arg-type]
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [message for message in self.messages if message["To"] == address]


class SmtpServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.recorder = Recorder()
        self.controller = Controller(self.recorder, hostname="127.0.0.1", port=self.port)

    def __enter__(self) -> Recorder:
        self.controller.start()
        return self.recorder

    def __exit__(self, *exc) -> None:
        self.controller.stop()
