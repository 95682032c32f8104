// Admin → Booking: bookings, availability, event types and the private feed.
import { API } from '#shared/api-paths.ts';
import { mutate } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { Availability, BookingAdminDto, BookingDto, EventTypeDto, EventTypeInput } from '#shared/schemas/booking.ts';

export { AvailabilitySchema, EventTypeInputSchema } from '#shared/schemas/booking.ts';
export type { Availability, EventTypeDto, EventTypeInput };
export type BookingAdmin = Json<BookingAdminDto>;
export type Booking = Json<BookingDto>;

const failed = (what: string) => ({ title: 'Error', description: `Failed to ${what}. Please try again.` });

export const saveAvailability = (input: Availability) => mutate<BookingAdmin>('PUT', API.bookingAvailability, input, failed('save the availability'));
export const newFeedAddress = () => mutate<{ feedUrl: string }>('POST', API.bookingFeedToken, {}, failed('make a new address'));
export const createType = (input: EventTypeInput) => mutate<EventTypeDto>('POST', API.bookingTypes, input, failed('save the event type'));
export const updateType = (id: number, input: EventTypeInput) => mutate<EventTypeDto>('PUT', API.bookingType(id), input, failed('save the event type'));
export const cancelAsOwner = (id: number, reason: string) => mutate<Booking>('POST', API.adminBookingCancel(id), { reason }, failed('cancel the booking'));
export const markNoShow = (id: number, noShow: boolean) => mutate<Booking>('PUT', API.adminBooking(id), { noShow }, failed('update the booking'));
