"""The WarpWar order language: parsing mail into typed orders, printing orders as text, merging mails."""
