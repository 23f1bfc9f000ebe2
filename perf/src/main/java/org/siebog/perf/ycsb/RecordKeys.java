package org.siebog.perf.ycsb;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import site.ycsb.ByteIterator;
import site.ycsb.Client;
import site.ycsb.RandomByteIterator;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

/**
 * The record keys YCSB's load phase would insert, named exactly as {@link CoreWorkload} names them
 * (insert order, zero padding, key prefix), and records of the workload's shape (fieldcount fields of
 * fieldlength random characters), for a binding that has to create them itself.
 */
final class RecordKeys extends CoreWorkload {

    private final long first;
    private final long count;
    private final int fieldCount;
    private final int fieldLength;
    private final String fieldPrefix;

    RecordKeys(Properties props) throws WorkloadException {
        init(props);
        first = Long.parseLong(props.getProperty(INSERT_START_PROPERTY, INSERT_START_PROPERTY_DEFAULT));
        count = Long.parseLong(props.getProperty(Client.INSERT_COUNT_PROPERTY,
                props.getProperty(Client.RECORD_COUNT_PROPERTY, Client.DEFAULT_RECORD_COUNT)));
        fieldCount = Integer.parseInt(props.getProperty(FIELD_COUNT_PROPERTY, FIELD_COUNT_PROPERTY_DEFAULT));
        fieldLength = Integer.parseInt(props.getProperty(FIELD_LENGTH_PROPERTY, FIELD_LENGTH_PROPERTY_DEFAULT));
        fieldPrefix = props.getProperty(FIELD_NAME_PREFIX, FIELD_NAME_PREFIX_DEFAULT);
    }

    long count() {
        return count;
    }

    /** The key of the {@code i}-th record (0 ≤ i < count). */
    String key(long i) {
        return buildKeyName(first + i);
    }

    /** A fresh record: what YCSB's load phase would insert. */
    Map<String, ByteIterator> record() {
        Map<String, ByteIterator> fields = new HashMap<>();
        for (int f = 0; f < fieldCount; f++) {
            fields.put(fieldPrefix + f, new RandomByteIterator(fieldLength));
        }
        return fields;
    }
}
