// The process's database handle: the one SQLite connection of db/client.ts. It imports nothing
// of the server, so any module (kernel or capability) may take the database from here.
export { getDb, type Db } from '#db/client.ts';
