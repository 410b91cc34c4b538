import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';

/** The certificate the TLS server on loopback `port` presents. */
export function servedCertificate(port: number): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()!);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}
