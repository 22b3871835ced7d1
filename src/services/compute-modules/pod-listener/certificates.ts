// The in-pod runtime's TLS material (CONTRACTS §10), made in process at start with @peculiar/x509 on Node's
// WebCrypto: a CA whose private key is not extractable (it signs one certificate and is forgotten), and a
// server certificate for the loopback addresses. No openssl child process, nothing read from disk.
//
// The extensions are those a strict verifier asks for (Python 3.13's VERIFY_X509_STRICT among them): a critical
// basicConstraints and keyUsage on the CA, subject and authority key identifiers, and on the server certificate
// the serverAuth usage and subjectAltName entries for 127.0.0.1, ::1 and localhost.
import { randomBytes, webcrypto } from 'node:crypto';

export interface PodTlsMaterial {
  /** The CA certificate, PEM: what a module trusts (CONNECTIONS_TO_OTHER_PODS_CA_PATH). Public. */
  caCertificate: string;
  /** The server certificate, PEM. */
  certificate: string;
  /** The server certificate's private key, PKCS #8 PEM: kept in memory, given only to the TLS listener. */
  privateKey: string;
}

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const HOUR_MS = 3_600_000;
/** Long enough for any emulator run; the material is made anew at each start. */
const VALIDITY_MS = 365 * 24 * HOUR_MS;

/** A positive 128-bit serial number (RFC 5280 §4.1.2.2), as hex. */
const serialNumber = (): string => {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
};

export async function makePodTlsMaterial(): Promise<PodTlsMaterial> {
  // Loaded here, not at start-up of every process: only the pod listener needs it (~90 ms unbundled).
  // tsyringe, under @peculiar/x509, wants the Reflect metadata polyfill loaded first.
  await import('reflect-metadata');
  const loaded = await import('@peculiar/x509');
  // Bundled (esbuild picks the package's CommonJS build), the exports arrive under `default`.
  const x509 = 'cryptoProvider' in loaded && loaded.cryptoProvider ? loaded : (loaded as unknown as { default: typeof loaded }).default;
  const crypto = webcrypto as unknown as Crypto;
  x509.cryptoProvider.set(crypto);

  // Real time, not the emulator's movable clock: TLS clients check validity against their own clock.
  const notBefore = new Date(Date.now() - HOUR_MS);
  const notAfter = new Date(Date.now() + VALIDITY_MS);

  const caKeys = (await crypto.subtle.generateKey(ECDSA, false, ['sign', 'verify'])) as CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: 'CN=platform-emulator in-pod runtime CA',
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ECDSA,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const serverKeys = (await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const server = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: 'CN=127.0.0.1',
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ECDSA,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
        { type: 'dns', value: 'localhost' },
      ]),
      await x509.SubjectKeyIdentifierExtension.create(serverKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const pkcs8 = await crypto.subtle.exportKey('pkcs8', serverKeys.privateKey);
  return {
    caCertificate: ca.toString('pem'),
    certificate: server.toString('pem'),
    privateKey: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'),
  };
}
