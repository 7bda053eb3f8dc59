package dev.opcua.sample.server.plant;

import dev.opcua.spring.boot.server.annotation.UaVariable;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.LocalizedText;

/**
 * The line's nameplate, served as an instance of Machinery's MachineIdentificationType (OPC 40001-1,
 * 8.1; {@code nsu=http://opcfoundation.org/UA/Machinery/;i=1012}): its getters bind the type's
 * properties of the same names, so that any Machinery client finds manufacturer, serial number and year
 * where the companion specification puts them. The type comes from the generated models
 * {@code model:di} and {@code model:machinery} of application.yml.
 */
public class MachineIdentification {

    private final LocalizedText manufacturer;
    private final String serialNumber;
    private final int yearOfConstruction;

    public MachineIdentification(String manufacturer, String serialNumber, int yearOfConstruction) {
        this.manufacturer = LocalizedText.of("en", manufacturer);
        this.serialNumber = serialNumber;
        this.yearOfConstruction = yearOfConstruction;
    }

    @UaVariable
    public LocalizedText getManufacturer() {
        return manufacturer;
    }

    @UaVariable
    public String getSerialNumber() {
        return serialNumber;
    }

    /** Globally unique (mandatory in MachineIdentificationType): the manufacturer's URI and the serial number. */
    @UaVariable
    public String getProductInstanceUri() {
        return "urn:dev.opcua:sample:machines:" + serialNumber;
    }

    /** UInt16 in the type; an int here. */
    @UaVariable(dataType = BuiltinType.UInt16)
    public int getYearOfConstruction() {
        return yearOfConstruction;
    }
}
