-- A complaint's reference made from a serial (domain/complaints.ts complaintReference): one
-- reference for each value of this sequence, so two complaints never draw the same one.
CREATE SEQUENCE "payment_complaint_serials" AS bigint MINVALUE 0 MAXVALUE 1099511627775 START WITH 0 NO CYCLE;
