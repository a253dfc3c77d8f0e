"""uvicorn's WebSocket protocol, answering handshakes it cannot parse.

A handshake whose request line or headers exceed the parser's limits (8 KiB a line) gets a
414 / 431 prepared by ``websockets`` that uvicorn 0.54 never writes: the client then waits
forever on a half-open connection. This protocol writes that answer and closes.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class CovenWebSocketProtocol(WebSocketsSansIOProtocol):
    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if (
            not self.handshake_initiated
            and self.conn.handshake_exc is not None
            and not self.transport.is_closing()
        ):
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()
