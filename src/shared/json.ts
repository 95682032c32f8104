// What a value looks like after crossing the API as JSON: dates become ISO strings. The admin
// app reads the API's answers as Json<…Dto> of the DTOs the services return.
export type Json<T> = T extends Date ? string : T extends (infer U)[] ? Json<U>[] : T extends object ? { [K in keyof T]: Json<T[K]> } : T;

/** true when A and B are the same type; a `const check: Same<Row, Dto> = true` breaks the build when a table and its DTO drift apart. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
