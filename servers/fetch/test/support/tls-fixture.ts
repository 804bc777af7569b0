/**
 * A self-signed certificate for `secure.test` (EC P-256, valid for 100 years), generated once
 * with openssl for these tests only. The https tests trust it through the client's `ca` option.
 */

export const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgROmaNwaKb2FFnFmd
8bwaA/G0gPAk/J5ZuyFonr0AVrahRANCAATe7g8dXJM+2fvQR+eyTEtiF3acvKNC
SM12VvP0gufRhqElX28vymETMiGk2h6QDtQ/uk7IEZgX33tY/C06lppA
-----END PRIVATE KEY-----
`;

export const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUZeBhnooONCZAwGjnmO7RM1FTwHQwCgYIKoZIzj0EAwIw
FjEUMBIGA1UEAwwLc2VjdXJlLnRlc3QwIBcNMjYxMTI1MTg1NDQ4WhgPMjEyNjEx
MDExODU0NDhaMBYxFDASBgNVBAMMC3NlY3VyZS50ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAE3u4PHVyTPtn70EfnskxLYhd2nLyjQkjNdlbz9ILn0YahJV9v
L8phEzIhpNoekA7UP7pOyBGYF997WPwtOpaaQKNrMGkwHQYDVR0OBBYEFC/J+ddd
IfTItgVbmEDW1mJwiKEfMB8GA1UdIwQYMBaAFC/J+dddIfTItgVbmEDW1mJwiKEf
MA8GA1UdEwEB/wQFMAMBAf8wFgYDVR0RBA8wDYILc2VjdXJlLnRlc3QwCgYIKoZI
zj0EAwIDSAAwRQIhAJjktbd3I+UXFvpfQIuWGznLSfB4qoV47bQrz9oxE0y+AiBk
LG+wE+2bQLIDbw4uDSitRpaLDvX7GvEwZEcLh1yF2A==
-----END CERTIFICATE-----
`;
