export declare const SERVER_FLAGS: string[];
