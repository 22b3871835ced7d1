// The in-pod runtime's TLS material (docs/contracts.md §10): a CA made at each start whose private key is not
// extractable (it signs one certificate and is forgotten), and a server certificate for the loopback addresses.
// The X.509 work is src/tls/certificates.ts, shared with the public TLS listener.
import { issueServerCertificate, makeCertificateAuthority } from '../../../tls/certificates.js';

export interface PodTlsMaterial {
  /** The CA certificate, PEM: what a module trusts (CONNECTIONS_TO_OTHER_PODS_CA_PATH). Public. */
  caCertificate: string;
  /** The server certificate, PEM. */
  certificate: string;
  /** The server certificate's private key, PKCS #8 PEM: kept in memory, given only to the TLS listener. */
  privateKey: string;
}

/** Long enough for any emulator run; the material is made anew at each start. */
const VALIDITY_DAYS = 365;

export async function makePodTlsMaterial(): Promise<PodTlsMaterial> {
  const ca = await makeCertificateAuthority('platform-emulator in-pod runtime CA', VALIDITY_DAYS, false);
  const server = await issueServerCertificate(ca, VALIDITY_DAYS);
  return { caCertificate: ca.certificate, ...server };
}
