"""A real SMTP server for the mail account tests: aiosmtpd on loopback that demands
STARTTLS before anything else, then AUTH (PLAIN or LOGIN) with one user name and
password, and keeps every message it accepts in a maildir.

Usage: smtp_auth_server.py PORT CERT KEY MAILDIR USER PASSWORD
"""

import ssl
import sys
import time

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult, LoginPassword


def main():
    port, cert, key, maildir, user, password = sys.argv[1:7]
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == user
            and auth_data.password.decode() == password
        )
        return AuthResult(success=ok, handled=False)

    controller = Controller(
        Mailbox(maildir),
        hostname="127.0.0.1",
        port=int(port),
        tls_context=context,
        require_starttls=True,
        authenticator=authenticate,
        auth_required=True,
    )
    controller.start()
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
