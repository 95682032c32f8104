// A local DNS server standing in for the From domain's name servers: it answers TXT queries over
// UDP (real DNS packets, dns-packet) from a table the test sets, and NXDOMAIN for any other name,
// so the site's resolver (pointed here by DNS_SERVERS) does real lookups.
import { createSocket } from 'node:dgram';
import * as packet from 'dns-packet';

export interface DnsDouble {
  /** The DNS_SERVERS value that points the site at this double. */
  server: string;
  /** TXT records by name (lower case); each record is one string. */
  txt: Map<string, string[]>;
  stop: () => Promise<void>;
}

export async function startDnsDouble(): Promise<DnsDouble> {
  const txt = new Map<string, string[]>();
  const socket = createSocket('udp4');
  socket.on('message', (msg, from) => {
    let query: packet.Packet;
    try {
      query = packet.decode(msg);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    const records = txt.get(name);
    const answers: packet.Answer[] = question.type === 'TXT' && records ? records.map((r) => ({ type: 'TXT', name: question.name, ttl: 60, class: 'IN', data: r.match(/.{1,255}/g) ?? [''] })) : [];
    // A name with no records of any kind does not exist (NXDOMAIN, rcode 3).
    const flags = packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | packet.AUTHORITATIVE_ANSWER | (records ? 0 : 3);
    const reply = packet.encode({ id: query.id, type: 'response', flags, questions: query.questions, answers });
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return { server: `127.0.0.1:${port}`, txt, stop: () => new Promise((resolve) => socket.close(() => resolve())) };
}
