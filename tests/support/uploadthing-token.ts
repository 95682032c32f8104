// UploadThing's token format (base64 of `{apiKey, appId, regions}`), for test configuration.
export const uploadThingToken = (apiKey: string, appId: string) => Buffer.from(JSON.stringify({ apiKey, appId, regions: ['test1'] })).toString('base64');
