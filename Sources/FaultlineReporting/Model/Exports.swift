// The event model is the record layer's, which writes it to the log and reads it back: an app names the event, its
// breadcrumbs, its user and their free-form JSON values through this module alone.
@_exported import struct FaultlineRecords.Breadcrumb
@_exported import enum FaultlineRecords.JSONValue
@_exported import struct FaultlineRecords.SentryEvent
@_exported import struct FaultlineRecords.UserContext
