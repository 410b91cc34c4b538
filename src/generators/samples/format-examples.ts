/**
 * A value that satisfies `format`, for each format the API server checks (the checks are the
 * semantics core's `matchesFormat`): what a sample holds for a formatted string field.
 */
export const formatExamples: Readonly<Record<string, string>> = {
  'date-time': '2024-01-01T00:00:00Z',
  datetime: '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  byte: 'c2FtcGxl',
  uuid: '00000000-0000-4000-8000-000000000000',
  uuid3: '00000000-0000-3000-8000-000000000000',
  uuid4: '00000000-0000-4000-8000-000000000000',
  uuid5: '00000000-0000-5000-8000-000000000000',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  cidr: '192.0.2.0/24',
  mac: '00:00:5e:00:53:01',
  hostname: 'example.com',
  email: 'user@example.com',
  uri: 'https://example.com',
  duration: '1h',
};
